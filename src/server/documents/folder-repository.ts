import { and, count, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documents } from '../db/schema';
import { ownDocuments, ownTrashedDocuments } from './policy';

/**
 * The statements on `documents` about folders: which folder a document sits in, its order there, and what
 * goes to the trash (and comes back) with a folder. The folders feature checks its folders and calls the
 * document writer, which runs these.
 */

/** A transaction or the database: what these statements need. */
export type Queryable = Pick<Db, 'select' | 'update' | 'delete'>;

const idList = (ids: readonly string[]) => sql`string_to_array(${ids.join(',')}, ',')::uuid[]`;

/** The folder of the user's document (null at the top level); undefined when it is not theirs. */
export async function findDocumentFolder(
  db: Queryable,
  userId: string,
  documentId: string,
): Promise<{ folderId: string | null } | undefined> {
  const [row] = await db
    .select({ folderId: documents.folderId })
    .from(documents)
    .where(and(eq(documents.id, documentId), ownDocuments(userId)))
    .limit(1);
  return row;
}

/**
 * Puts the user's document in `folderId` (null: the top level) at `position` among the documents there
 * (undefined: where it is when it stays, else last), renumbering that folder's documents 0, 1, 2…. False when
 * the document is not theirs. Run it in a transaction: it reads the order, then writes it.
 */
export async function placeDocument(
  db: Queryable,
  userId: string,
  documentId: string,
  folderId: string | null,
  position: number | undefined,
): Promise<boolean> {
  const [current] = await db
    .select({ folderId: documents.folderId })
    .from(documents)
    .where(and(eq(documents.id, documentId), ownDocuments(userId)))
    .for('update')
    .limit(1);
  if (!current) return false;
  const inFolder = folderId === null ? isNull(documents.folderId) : eq(documents.folderId, folderId);
  const siblings = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(inFolder, ownDocuments(userId)))
    .orderBy(documents.position, sql`${documents.updatedAt} desc`, documents.id)
    .for('update');
  const order = siblings.map((row) => row.id);
  const at = order.indexOf(documentId);
  if (at >= 0) order.splice(at, 1);
  const index = position ?? (at >= 0 ? at : order.length);
  order.splice(Math.min(index, order.length), 0, documentId);
  await db
    .update(documents)
    .set({
      folderId: sql`case when ${documents.id} = ${documentId} then ${folderId}::uuid else ${documents.folderId} end`,
      position: sql`array_position(${idList(order)}, ${documents.id}) - 1`,
    })
    .where(and(sql`${documents.id} = any(${idList(order)})`, eq(documents.userId, userId)));
  return true;
}

/** Documents directly in each of the user's folders (the key null: at the top level), outside the trash. */
export async function countDocumentsPerFolder(
  db: Queryable,
  userId: string,
): Promise<Map<string | null, number>> {
  const rows = await db
    .select({ folderId: documents.folderId, n: count() })
    .from(documents)
    .where(ownDocuments(userId))
    .groupBy(documents.folderId);
  return new Map(rows.map((row) => [row.folderId, row.n]));
}

/** The user's documents in these folders outside the trash, in each folder's order, at most `limit`. */
export async function listDocumentsInFolders(
  db: Queryable,
  userId: string,
  folderIds: readonly string[],
  limit: number,
): Promise<{ id: string; title: string; content: unknown; folderId: string }[]> {
  if (folderIds.length === 0) return [];
  const rows = await db
    .select({
      id: documents.id,
      title: documents.title,
      content: documents.content,
      folderId: documents.folderId,
    })
    .from(documents)
    .where(and(inArray(documents.folderId, [...folderIds]), ownDocuments(userId)))
    .orderBy(documents.folderId, documents.position, sql`${documents.updatedAt} desc`, documents.id)
    .limit(limit);
  return rows.map((row) => ({ ...row, folderId: row.folderId! }));
}

/** The ids of the user's documents in these folders, outside the trash. */
export async function listDocumentIdsInFolders(
  db: Queryable,
  userId: string,
  folderIds: readonly string[],
): Promise<string[]> {
  if (folderIds.length === 0) return [];
  const rows = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(inArray(documents.folderId, [...folderIds]), ownDocuments(userId)));
  return rows.map((row) => row.id);
}

/** Moves the user's documents in these folders to the trash as gone with `rootId`. Returns their ids. */
export async function trashDocumentsInFolders(
  db: Queryable,
  userId: string,
  folderIds: readonly string[],
  rootId: string,
): Promise<string[]> {
  if (folderIds.length === 0) return [];
  const rows = await db
    .update(documents)
    .set({ trashedAt: sql`now()`, trashedWith: rootId })
    .where(and(inArray(documents.folderId, [...folderIds]), ownDocuments(userId)))
    .returning({ id: documents.id });
  return rows.map((row) => row.id);
}

/** How many of the user's trashed documents went with each of these folders. */
export async function countDocumentsTrashedWith(
  db: Queryable,
  userId: string,
  rootIds: readonly string[],
): Promise<Map<string, number>> {
  if (rootIds.length === 0) return new Map();
  const rows = await db
    .select({ rootId: documents.trashedWith, n: count() })
    .from(documents)
    .where(and(inArray(documents.trashedWith, [...rootIds]), ownTrashedDocuments(userId)))
    .groupBy(documents.trashedWith);
  return new Map(rows.map((row) => [row.rootId!, row.n]));
}

/** Brings back the user's documents that went to the trash with `rootId` (in their folders). Their ids. */
export async function restoreDocumentsTrashedWith(
  db: Queryable,
  userId: string,
  rootId: string,
): Promise<string[]> {
  const rows = await db
    .update(documents)
    .set({ trashedAt: null, trashedWith: null })
    .where(and(eq(documents.trashedWith, rootId), ownTrashedDocuments(userId)))
    .returning({ id: documents.id });
  return rows.map((row) => row.id);
}

/** Deletes for good the user's documents that went to the trash with `rootId` (any when undefined). */
export async function deleteDocumentsTrashedWith(
  db: Queryable,
  userId: string,
  rootId: string | undefined,
): Promise<string[]> {
  const rows = await db
    .delete(documents)
    .where(
      and(
        rootId === undefined ? isNotNull(documents.trashedWith) : eq(documents.trashedWith, rootId),
        ownTrashedDocuments(userId),
      ),
    )
    .returning({ id: documents.id });
  return rows.map((row) => row.id);
}
