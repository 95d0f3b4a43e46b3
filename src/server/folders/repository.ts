import { and, asc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { folders } from '../db/schema';
import type { FolderTransaction } from '../documents';

/** Every SQL statement on the `folders` table. */

export type FolderRow = typeof folders.$inferSelect;

type Reader = Pick<Db, 'select'>;

/** The user's folders outside the trash, siblings in their order. */
export function listFoldersOf(db: Reader, userId: string): Promise<FolderRow[]> {
  return db
    .select()
    .from(folders)
    .where(and(eq(folders.userId, userId), isNull(folders.trashedAt)))
    .orderBy(asc(folders.position), asc(folders.name), asc(folders.id));
}

/** The user's folders outside the trash, locked until the transaction ends: changes of the tree take turns. */
export function lockTreeOf(tx: FolderTransaction, userId: string): Promise<FolderRow[]> {
  return tx
    .select()
    .from(folders)
    .where(and(eq(folders.userId, userId), isNull(folders.trashedAt)))
    .orderBy(asc(folders.position), asc(folders.name), asc(folders.id))
    .for('update');
}

/** Whether the folder is the user's and outside the trash. */
export async function isLiveFolderOf(db: Reader, userId: string, folderId: string): Promise<boolean> {
  const rows = await db
    .select({ id: folders.id })
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.userId, userId), isNull(folders.trashedAt)))
    .limit(1);
  return rows.length > 0;
}

export async function insertFolder(
  tx: FolderTransaction,
  values: { userId: string; parentId: string | null; name: string; position: number },
): Promise<FolderRow> {
  const [row] = await tx.insert(folders).values(values).returning();
  return row!;
}

export async function updateFolder(
  tx: FolderTransaction,
  userId: string,
  folderId: string,
  changes: { name?: string; parentId?: string | null },
): Promise<void> {
  await tx
    .update(folders)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(folders.id, folderId), eq(folders.userId, userId)));
}

/** Gives these folders the positions 0, 1, 2… in the order given. */
export async function setFolderOrder(tx: FolderTransaction, userId: string, order: readonly string[]) {
  if (order.length === 0) return;
  const ids = sql`string_to_array(${order.join(',')}, ',')::uuid[]`;
  await tx
    .update(folders)
    .set({ position: sql`array_position(${ids}, ${folders.id}) - 1` })
    .where(and(sql`${folders.id} = any(${ids})`, eq(folders.userId, userId)));
}

/** Moves these folders of the user to the trash as gone with `rootId`. */
export async function trashFolders(
  tx: FolderTransaction,
  userId: string,
  ids: readonly string[],
  rootId: string,
) {
  await tx
    .update(folders)
    .set({ trashedAt: sql`now()`, trashedWith: rootId })
    .where(and(inArray(folders.id, [...ids]), eq(folders.userId, userId), isNull(folders.trashedAt)));
}

/** The user's folder deleted on its own (not one that went with another), when it is in the trash. */
export async function findTrashedRoot(
  db: Reader,
  userId: string,
  folderId: string,
): Promise<FolderRow | undefined> {
  const [row] = await db
    .select()
    .from(folders)
    .where(and(eq(folders.id, folderId), eq(folders.userId, userId), eq(folders.trashedWith, folderId)))
    .limit(1);
  return row;
}

/** The folders that went to the trash with `rootId` (itself included). */
export function foldersTrashedWith(db: Reader, userId: string, rootId: string): Promise<FolderRow[]> {
  return db
    .select()
    .from(folders)
    .where(and(eq(folders.trashedWith, rootId), eq(folders.userId, userId), isNotNull(folders.trashedAt)));
}

/** Brings back the folders that went with `rootId`; the root itself under `parentId`. */
export async function restoreFoldersTrashedWith(
  tx: FolderTransaction,
  userId: string,
  rootId: string,
  parentId: string | null,
) {
  await tx
    .update(folders)
    .set({
      trashedAt: null,
      trashedWith: null,
      parentId: sql`case when ${folders.id} = ${rootId} then ${parentId}::uuid else ${folders.parentId} end`,
    })
    .where(and(eq(folders.trashedWith, rootId), eq(folders.userId, userId), isNotNull(folders.trashedAt)));
}

/** Deletes for good the folders that went with `rootId` (every trashed one of the user's when undefined). */
export async function deleteTrashedFolders(
  tx: FolderTransaction,
  userId: string,
  rootId: string | undefined,
) {
  await tx
    .delete(folders)
    .where(
      and(
        rootId === undefined ? undefined : eq(folders.trashedWith, rootId),
        eq(folders.userId, userId),
        isNotNull(folders.trashedAt),
      ),
    );
}

export interface TrashedFolderRow {
  id: string;
  name: string;
  trashedAt: Date;
  folderCount: number;
}

/** The user's folders deleted on their own, most recently first, with how many sub-folders went with each. */
export async function listTrashedFoldersOf(db: Reader, userId: string): Promise<TrashedFolderRow[]> {
  const rows = await db
    .select({ rootId: folders.trashedWith, name: folders.name, id: folders.id, trashedAt: folders.trashedAt })
    .from(folders)
    .where(and(eq(folders.userId, userId), isNotNull(folders.trashedAt)))
    .orderBy(sql`${folders.trashedAt} desc`, folders.id);
  const subFolders = new Map<string, number>();
  for (const row of rows) {
    if (row.rootId && row.rootId !== row.id)
      subFolders.set(row.rootId, (subFolders.get(row.rootId) ?? 0) + 1);
  }
  return rows
    .filter((row) => row.rootId === row.id)
    .map((row) => ({
      id: row.id,
      name: row.name,
      trashedAt: row.trashedAt!,
      folderCount: subFolders.get(row.id) ?? 0,
    }));
}

/** Deletes every folder whose time in the trash is over (any owner). Returns how many. */
export async function purgeExpiredFolders(db: Db, retentionDays: number): Promise<number> {
  const rows = await db
    .delete(folders)
    .where(lt(folders.trashedAt, sql`now() - make_interval(days => ${retentionDays})`))
    .returning({ id: folders.id });
  return rows.length;
}
