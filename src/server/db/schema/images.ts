import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { documents } from './documents';

/** Images uploaded into documents (migration 0029); the bytes are files under DATA_DIR/images. */
export const documentImages = pgTable(
  'document_images',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    bytes: integer('bytes').notNull(),
    mime: text('mime').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the orphaned-image sweep last looked at it (migration 0036); null: never. */
    checkedAt: timestamp('checked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('document_images_document_idx').on(t.documentId),
    index('document_images_sweep_idx').on(t.checkedAt.asc().nullsFirst(), t.createdAt),
  ],
);
