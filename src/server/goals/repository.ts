import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documentGoals, documents, folderGoals, wordsWritten } from '../db/schema';

/** The only code that writes document_goals, folder_goals and words_written. Callers check access first. */

export interface GoalRow {
  targetWords: number;
  deadline: string | null;
}

/** What a goal is set on: one of the writer's documents, or one of their folders. */
export type GoalSubject = { documentId: string } | { folderId: string };

const tableOf = (subject: GoalSubject) =>
  'documentId' in subject
    ? { table: documentGoals, key: documentGoals.documentId, id: subject.documentId }
    : { table: folderGoals, key: folderGoals.folderId, id: subject.folderId };

export async function findGoal(db: Db, userId: string, subject: GoalSubject): Promise<GoalRow | undefined> {
  const { table, key, id } = tableOf(subject);
  const [row] = await db
    .select({ targetWords: table.targetWords, deadline: table.deadline })
    .from(table)
    .where(and(eq(table.userId, userId), eq(key, id)));
  return row;
}

export async function upsertGoal(db: Db, userId: string, subject: GoalSubject, goal: GoalRow): Promise<void> {
  const set = { targetWords: goal.targetWords, deadline: goal.deadline, updatedAt: sql`now()` };
  if ('documentId' in subject) {
    await db
      .insert(documentGoals)
      .values({ userId, documentId: subject.documentId, ...goal })
      .onConflictDoUpdate({ target: [documentGoals.userId, documentGoals.documentId], set });
  } else {
    await db
      .insert(folderGoals)
      .values({ userId, folderId: subject.folderId, ...goal })
      .onConflictDoUpdate({ target: [folderGoals.userId, folderGoals.folderId], set });
  }
}

export async function deleteGoal(db: Db, userId: string, subject: GoalSubject): Promise<void> {
  const { table, key, id } = tableOf(subject);
  await db.delete(table).where(and(eq(table.userId, userId), eq(key, id)));
}

/** Adds `words` (net, may be negative) to the writer's quarter hour starting at `bucketStart`. */
export async function addWordsWritten(
  db: Db,
  entry: { userId: string; documentId: string; bucketStart: Date; words: number },
): Promise<void> {
  await db
    .insert(wordsWritten)
    .values(entry)
    .onConflictDoUpdate({
      target: [wordsWritten.userId, wordsWritten.documentId, wordsWritten.bucketStart],
      set: { words: sql`${wordsWritten.words} + excluded.words` },
    });
}

/** The writer's buckets since `since`, each with its words in every document and in `documentIds`. */
export async function listWordsWritten(
  db: Db,
  userId: string,
  documentIds: readonly string[],
  since: Date,
): Promise<{ start: Date; words: number; subjectWords: number }[]> {
  const inSubject = documentIds.length > 0 ? inArray(wordsWritten.documentId, [...documentIds]) : sql`false`;
  const rows = await db
    .select({
      start: wordsWritten.bucketStart,
      words: sql<number>`sum(${wordsWritten.words})::int`,
      subjectWords: sql<number>`coalesce(sum(${wordsWritten.words}) filter (where ${inSubject}), 0)::int`,
    })
    .from(wordsWritten)
    .where(and(eq(wordsWritten.userId, userId), gte(wordsWritten.bucketStart, since)))
    .groupBy(wordsWritten.bucketStart);
  return rows.map((row) => ({
    start: row.start,
    words: Number(row.words),
    subjectWords: Number(row.subjectWords),
  }));
}

/** The stored content of a document (any owner): what the word count starts from when nobody has it live. */
export async function findStoredContent(db: Db, documentId: string): Promise<unknown> {
  const [row] = await db
    .select({ content: documents.content })
    .from(documents)
    .where(eq(documents.id, documentId));
  return row?.content;
}
