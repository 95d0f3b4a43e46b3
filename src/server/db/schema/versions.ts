import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { VersionAuthor, VersionReason } from '../../../shared/schemas/versions';
import { documents } from './documents';

/** Snapshots of a document (migration 0016); see src/server/versions/. */
export const documentVersions = pgTable(
  'document_versions',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    reason: text('reason').$type<VersionReason>().notNull(),
    name: text('name'),
    title: text('title').notNull(),
    content: jsonb('content').notNull(),
    authors: jsonb('authors').$type<VersionAuthor[]>().notNull().default([]),
    wordCount: integer('word_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('document_versions_document_created_idx').on(t.documentId, t.createdAt.desc(), t.seq.desc())],
);
