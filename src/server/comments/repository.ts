import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { comments, commentThreads, documents, users } from '../db/schema';

/** Every SQL statement on comment_threads and comments; the service decides who may run them. */

export type ThreadRow = typeof commentThreads.$inferSelect;
export type CommentRow = typeof comments.$inferSelect;

/** The threads of a document (one status, or all) with their comments, oldest comment first. */
export async function findThreads(
  db: Db,
  documentId: string,
  status: 'open' | 'resolved' | 'all',
): Promise<{ threads: ThreadRow[]; comments: CommentRow[] }> {
  const threads = await db
    .select()
    .from(commentThreads)
    .where(
      and(
        eq(commentThreads.documentId, documentId),
        status === 'all' ? undefined : eq(commentThreads.status, status),
      ),
    )
    .orderBy(asc(commentThreads.createdAt), asc(commentThreads.id));
  if (threads.length === 0) return { threads, comments: [] };
  const rows = await db
    .select()
    .from(comments)
    .where(
      inArray(
        comments.threadId,
        threads.map((thread) => thread.id),
      ),
    )
    .orderBy(asc(comments.createdAt), asc(comments.id));
  return { threads, comments: rows };
}

/** The quote and its surroundings of each open thread of the document, oldest first. */
export async function findOpenThreadAnchors(
  db: Db,
  documentId: string,
): Promise<{ id: string; quote: string; prefix: string; suffix: string }[]> {
  return db
    .select({
      id: commentThreads.id,
      quote: commentThreads.quote,
      prefix: commentThreads.prefix,
      suffix: commentThreads.suffix,
    })
    .from(commentThreads)
    .where(and(eq(commentThreads.documentId, documentId), eq(commentThreads.status, 'open')))
    .orderBy(asc(commentThreads.createdAt), asc(commentThreads.id));
}

/** One thread of the document with its comments, or undefined. */
export async function findThread(
  db: Db,
  documentId: string,
  threadId: string,
): Promise<{ thread: ThreadRow; comments: CommentRow[] } | undefined> {
  const [thread] = await db
    .select()
    .from(commentThreads)
    .where(and(eq(commentThreads.id, threadId), eq(commentThreads.documentId, documentId)));
  if (!thread) return undefined;
  const rows = await db
    .select()
    .from(comments)
    .where(eq(comments.threadId, threadId))
    .orderBy(asc(comments.createdAt), asc(comments.id));
  return { thread, comments: rows };
}

/** Any document's thread with this id (a client's id must not name another document's thread). */
export async function findThreadDocument(db: Db, threadId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ documentId: commentThreads.documentId })
    .from(commentThreads)
    .where(eq(commentThreads.id, threadId));
  return row?.documentId;
}

/**
 * A new thread with its first comment, in one transaction; false when a thread with this id already exists
 * (a retried create: nothing is written).
 */
export async function insertThread(
  db: Db,
  thread: typeof commentThreads.$inferInsert,
  firstComment: Omit<typeof comments.$inferInsert, 'threadId'>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(commentThreads)
      .values(thread)
      .onConflictDoNothing({ target: commentThreads.id })
      .returning({ id: commentThreads.id });
    if (inserted.length === 0) return false;
    await tx.insert(comments).values({ ...firstComment, threadId: thread.id });
    return true;
  });
}

export async function insertComment(db: Db, values: typeof comments.$inferInsert): Promise<CommentRow> {
  const [row] = await db.insert(comments).values(values).returning();
  return row!;
}

export async function updateCommentBody(
  db: Db,
  threadId: string,
  commentId: string,
  body: string,
  mentions: CommentRow['mentions'],
): Promise<CommentRow | undefined> {
  const [row] = await db
    .update(comments)
    .set({ body, mentions, editedAt: sql`now()` })
    .where(and(eq(comments.id, commentId), eq(comments.threadId, threadId)))
    .returning();
  return row;
}

export async function deleteComment(db: Db, threadId: string, commentId: string): Promise<boolean> {
  const rows = await db
    .delete(comments)
    .where(and(eq(comments.id, commentId), eq(comments.threadId, threadId)))
    .returning({ id: comments.id });
  return rows.length > 0;
}

export async function deleteThread(db: Db, documentId: string, threadId: string): Promise<boolean> {
  const rows = await db
    .delete(commentThreads)
    .where(and(eq(commentThreads.id, threadId), eq(commentThreads.documentId, documentId)))
    .returning({ id: commentThreads.id });
  return rows.length > 0;
}

export async function updateThreadStatus(
  db: Db,
  documentId: string,
  threadId: string,
  status: 'open' | 'resolved',
  by: { userId: string | null; name: string },
): Promise<void> {
  const resolved = status === 'resolved';
  await db
    .update(commentThreads)
    .set({
      status,
      resolvedAt: resolved ? sql`now()` : null,
      resolvedByUserId: resolved ? by.userId : null,
      resolvedByName: resolved ? by.name : null,
    })
    .where(and(eq(commentThreads.id, threadId), eq(commentThreads.documentId, documentId)));
}

/** The name a signed-in person comments under: their full name, else their address's local part. */
export async function findUserName(db: Db, userId: string): Promise<string> {
  const [row] = await db
    .select({ fullName: users.fullName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row?.fullName.trim() || row?.email.split('@')[0] || 'Someone';
}

/** The document's stored content (for the order of threads in the text). */
export async function findDocumentContent(db: Db, documentId: string): Promise<unknown> {
  const [row] = await db
    .select({ content: documents.content })
    .from(documents)
    .where(eq(documents.id, documentId));
  return row?.content;
}

/**
 * The people on a document: its owner and every signed-in member, of the document or of a folder above it
 * outside the trash (the walk of documents/policy.ts), with the name they comment under and their address.
 */
export async function findDocumentPeople(
  db: Db,
  documentId: string,
): Promise<{ id: string; name: string; email: string }[]> {
  const rows = await db.execute<{ id: string; full_name: string; email: string }>(sql`
    with recursive up(id, parent_id) as (
      select f.id, f.parent_id from folders f
        join documents d on d.folder_id = f.id where d.id = ${documentId}::uuid and f.trashed_at is null
      union
      select f.id, f.parent_id from folders f join up on f.id = up.parent_id where f.trashed_at is null
    ), people(user_id) as (
      select d.user_id from documents d where d.id = ${documentId}::uuid
      union select dm.user_id from document_members dm where dm.document_id = ${documentId}::uuid and dm.user_id is not null
      union select fm.user_id from folder_members fm where fm.folder_id in (select id from up) and fm.user_id is not null
    )
    select u.id, u.full_name, u.email from users u join people p on p.user_id = u.id`);
  return rows.rows.map((row) => ({
    id: row.id,
    name: row.full_name.trim() || row.email.split('@')[0] || 'Someone',
    email: row.email,
  }));
}

/** The names people comment under, by id (ids without an account are left out). */
export async function findUserNames(db: Db, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, fullName: users.fullName, email: users.email })
    .from(users)
    .where(inArray(users.id, userIds));
  return new Map(rows.map((row) => [row.id, row.fullName.trim() || row.email.split('@')[0] || 'Someone']));
}
