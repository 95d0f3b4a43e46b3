import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { afterInDescendingOrder, micros, type PageAfter } from '../pagination';
import type { Db } from '../db/client';
import { documentVersions, users } from '../db/schema';
import type { VersionAuthor, VersionReason } from '../../shared/schemas/versions';

/** Every SQL statement on document_versions (and the author names it reads from users). */

export interface VersionSummaryRecord {
  id: string;
  createdAt: Date;
  reason: VersionReason;
  name: string | null;
  authors: VersionAuthor[];
  wordCount: number;
}

export interface VersionRecord extends VersionSummaryRecord {
  documentId: string;
  title: string;
  content: unknown;
}

export interface NewVersion {
  documentId: string;
  reason: VersionReason;
  name: string | null;
  title: string;
  content: unknown;
  authors: VersionAuthor[];
  wordCount: number;
  createdAt: Date;
}

const summaryColumns = {
  id: documentVersions.id,
  createdAt: documentVersions.createdAt,
  reason: documentVersions.reason,
  name: documentVersions.name,
  authors: documentVersions.authors,
  wordCount: documentVersions.wordCount,
};

const fullColumns = {
  ...summaryColumns,
  documentId: documentVersions.documentId,
  title: documentVersions.title,
  content: documentVersions.content,
};

const newestFirst = [desc(documentVersions.createdAt), desc(documentVersions.seq)];

export async function insertVersion(db: Db, version: NewVersion): Promise<VersionRecord> {
  const [row] = await db.insert(documentVersions).values(version).returning(fullColumns);
  return row!;
}

export async function listVersions(db: Db, documentId: string): Promise<VersionSummaryRecord[]> {
  return db
    .select(summaryColumns)
    .from(documentVersions)
    .where(eq(documentVersions.documentId, documentId))
    .orderBy(...newestFirst);
}

/** `limit` versions after `after`, newest first (ties by seq), each with its place for the next page's cursor. */
export async function listVersionsPage(
  db: Db,
  documentId: string,
  page: { limit: number; after: PageAfter | undefined },
): Promise<(VersionSummaryRecord & { place: PageAfter })[]> {
  const rows = await db
    .select({ ...summaryColumns, at: micros(documentVersions.createdAt), seq: documentVersions.seq })
    .from(documentVersions)
    .where(
      page.after
        ? and(
            eq(documentVersions.documentId, documentId),
            afterInDescendingOrder(documentVersions.createdAt, documentVersions.seq, page.after),
          )
        : eq(documentVersions.documentId, documentId),
    )
    .orderBy(...newestFirst)
    .limit(page.limit);
  return rows.map(({ at, seq, ...row }) => ({ ...row, place: { at, key: String(seq) } }));
}

export async function findVersion(
  db: Db,
  documentId: string,
  versionId: string,
): Promise<VersionRecord | undefined> {
  const [row] = await db
    .select(fullColumns)
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.id, versionId)))
    .limit(1);
  return row;
}

/**
 * The newest version's time and reason, and whether its title and content equal the given ones (compared as jsonb,
 * so key order does not matter). Undefined when the document has no version yet.
 */
export async function newestVersionComparedTo(
  db: Db,
  documentId: string,
  state: { title: string; content: unknown },
): Promise<{ createdAt: Date; reason: VersionReason; same: boolean } | undefined> {
  const [row] = await db
    .select({
      createdAt: documentVersions.createdAt,
      reason: documentVersions.reason,
      same: sql<boolean>`(${documentVersions.title} = ${state.title} and ${documentVersions.content} = ${JSON.stringify(state.content)}::jsonb)`,
    })
    .from(documentVersions)
    .where(eq(documentVersions.documentId, documentId))
    .orderBy(...newestFirst)
    .limit(1);
  return row;
}

export async function newestVersionTime(db: Db, documentId: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ createdAt: documentVersions.createdAt })
    .from(documentVersions)
    .where(eq(documentVersions.documentId, documentId))
    .orderBy(...newestFirst)
    .limit(1);
  return row?.createdAt;
}

/** Deletes a named version; `not_named` (nothing deleted) for an automatic one, `missing` if absent. */
export async function deleteNamedVersion(
  db: Db,
  documentId: string,
  versionId: string,
): Promise<'deleted' | 'not_named' | 'missing'> {
  const version = await findVersion(db, documentId, versionId);
  if (!version) return 'missing';
  if (version.name === null) return 'not_named';
  await db.delete(documentVersions).where(eq(documentVersions.id, versionId));
  return 'deleted';
}

/**
 * Deletes the unnamed versions older than their owner's plan keeps them (`retentionDays`: plan id → days;
 * a plan not listed keeps them forever), never the newest version of a document. One statement, for one
 * document or for all. Returns how many were deleted.
 */
export async function pruneExpiredVersions(
  db: Db,
  retentionDays: ReadonlyMap<string, number>,
  now: Date,
  documentId?: string,
): Promise<number> {
  if (retentionDays.size === 0) return 0;
  const plans = sql.join(
    [...retentionDays].map(([plan, days]) => sql`(${plan}::text, ${days}::integer)`),
    sql`, `,
  );
  const result = await db.execute<{ id: string }>(sql`
    delete from document_versions v
    using documents d, users u, (values ${plans}) as retention(plan, days)
    where v.document_id = d.id
      and d.user_id = u.id
      and u.plan = retention.plan
      and v.name is null
      and v.created_at < ${now.toISOString()}::timestamptz - retention.days * interval '1 day'
      ${documentId ? sql`and v.document_id = ${documentId}::uuid` : sql``}
      and v.id <> (
        select newest.id from document_versions newest
        where newest.document_id = v.document_id
        order by newest.created_at desc, newest.seq desc
        limit 1
      )
    returning v.id`);
  return result.rows.length;
}

/** Display names of users (full name, else the email's local part). */
export async function userNames(db: Db, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, fullName: users.fullName, email: users.email })
    .from(users)
    .where(inArray(users.id, [...userIds]));
  return new Map(rows.map((row) => [row.id, row.fullName.trim() || row.email.split('@')[0]!]));
}
