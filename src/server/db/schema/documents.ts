import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { folders } from './folders';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

export const documents = pgTable(
  'documents',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    /**
     * Rich-text tree (docs/product-rules.md#rich-text-content). When a Yjs state exists the server keeps this
     * derived from it.
     */
    content: jsonb('content').notNull(),
    /** Encoded Yjs document state (collaboration); null until the document is first opened live. */
    ydocState: bytea('ydoc_state'),
    /** Incremented on every change; the ETag of GET /api/documents/:id. */
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    isPublic: boolean('is_public').notNull().default(false),
    shareAllowEditing: boolean('share_allow_editing').notNull().default(false),
    shareAllowSuggesting: boolean('share_allow_suggesting').notNull().default(false),
    shareAllowCommenting: boolean('share_allow_commenting').notNull().default(false),
    shareExpiresAt: timestamp('share_expires_at', { withTimezone: true, mode: 'date' }),
    sharePasswordHash: text('share_password_hash'),
    /** Part of the share link's address; null until the link is first reset. */
    shareLinkKey: text('share_link_key'),
    shareShowSuggestions: boolean('share_show_suggestions').notNull().default(false),
    /** When the owner moved it to the trash; null for a live document (docs/product-rules.md, Trash). */
    trashedAt: timestamp('trashed_at', { withTimezone: true, mode: 'date' }),
    /** The folder it sits in; null at the top level (docs/library.md). */
    folderId: uuid('folder_id').references(() => folders.id, { onDelete: 'set null' }),
    /** The manual order inside its folder, smallest first. */
    position: integer('position').notNull().default(0),
    /** The folder whose deletion took it to the trash; null when it was deleted on its own. */
    trashedWith: uuid('trashed_with'),
  },
  (t) => [
    index('documents_user_updated_idx').on(t.userId, t.updatedAt.desc()),
    index('documents_trash_idx')
      .on(t.userId, t.trashedAt.desc())
      .where(sql`${t.trashedAt} is not null`),
  ],
);
