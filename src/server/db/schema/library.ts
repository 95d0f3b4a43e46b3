import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { RichTextDoc } from '../../../shared/schemas/richText';
import { users } from './accounts';
import { documents } from './documents';

/** A user's pinned documents (migration 0024); see documents/pins.ts. */
export const documentPins = pgTable(
  'document_pins',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    pinnedAt: timestamp('pinned_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.documentId] }),
    index('document_pins_document_idx').on(t.documentId),
  ],
);

/** A writer's own templates (migration 0024); see src/server/templates/. */
export const templates = pgTable(
  'templates',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The title of documents made from it, variables unfilled. */
    title: text('title').notNull(),
    content: jsonb('content').$type<RichTextDoc>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('templates_user_idx').on(t.userId, t.createdAt.desc())],
);
