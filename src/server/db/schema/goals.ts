import { date, index, integer, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { documents } from './documents';
import { folders } from './folders';

/** Each writer's word target (and deadline) for a document (docs/goals.md). */
export const documentGoals = pgTable(
  'document_goals',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    targetWords: integer('target_words').notNull(),
    /** The last day of writing, in the writer's zone. */
    deadline: date('deadline', { mode: 'string' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.documentId] })],
);

/** Net words a writer wrote in a document per quarter hour (UTC bucket starts). */
export const wordsWritten = pgTable(
  'words_written',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    bucketStart: timestamp('bucket_start', { withTimezone: true, mode: 'date' }).notNull(),
    words: integer('words').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.documentId, t.bucketStart] }),
    index('words_written_user_time_idx').on(t.userId, t.bucketStart),
  ],
);

/** Each writer's word target for a folder: its documents and its sub-folders' (docs/goals.md). */
export const folderGoals = pgTable(
  'folder_goals',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    folderId: uuid('folder_id')
      .notNull()
      .references(() => folders.id, { onDelete: 'cascade' }),
    targetWords: integer('target_words').notNull(),
    deadline: date('deadline', { mode: 'string' }),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.folderId] })],
);
