import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/** A user's nested folders (docs/library.md). Documents name theirs in `documents.folder_id`. */
export const folders = pgTable(
  'folders',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Null at the top level. */
    parentId: uuid('parent_id').references((): AnyPgColumn => folders.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    /** The manual order among its siblings, smallest first. */
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    trashedAt: timestamp('trashed_at', { withTimezone: true, mode: 'date' }),
    /** The folder whose deletion took this one to the trash (itself for the folder deleted). */
    trashedWith: uuid('trashed_with'),
  },
  (t) => [
    index('folders_user_parent_idx').on(t.userId, t.parentId),
    index('folders_parent_idx')
      .on(t.parentId)
      .where(sql`${t.parentId} is not null`),
  ],
);
