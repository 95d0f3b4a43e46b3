import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { documents } from './documents';

/**
 * People on a document (migration 0026): a member (user_id set) or an invitation waiting for its address to
 * have a confirmed account (user_id null; a trigger on users fills it in). The owner is not a row here.
 */
export const documentMembers = pgTable(
  'document_members',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Lower-cased and trimmed, like users.email. */
    email: text('email').notNull(),
    role: text('role').$type<'viewer' | 'suggester' | 'editor'>().notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    invitedAt: timestamp('invited_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    unique('document_members_document_id_email_key').on(t.documentId, t.email),
    uniqueIndex('document_members_user_idx')
      .on(t.userId, t.documentId)
      .where(sql`${t.userId} is not null`),
    index('document_members_pending_email_idx')
      .on(t.email)
      .where(sql`${t.userId} is null`),
  ],
);
