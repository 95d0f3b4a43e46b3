import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import type { MemberRole } from '../../../shared/schemas/people';
import { documents } from './documents';
import { folders } from './folders';

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
    role: text('role').$type<MemberRole>().notNull(),
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

/**
 * People on a folder (migration 0033): like documentMembers, and the role holds on every document in the folder
 * and in its sub-folders. The role is one of MEMBER_ROLES (the service checks it; the table has no CHECK).
 */
export const folderMembers = pgTable(
  'folder_members',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    folderId: uuid('folder_id')
      .notNull()
      .references(() => folders.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Lower-cased and trimmed, like users.email. */
    email: text('email').notNull(),
    role: text('role').$type<MemberRole>().notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    invitedAt: timestamp('invited_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    unique('folder_members_folder_id_email_key').on(t.folderId, t.email),
    uniqueIndex('folder_members_user_idx')
      .on(t.userId, t.folderId)
      .where(sql`${t.userId} is not null`),
    index('folder_members_pending_email_idx')
      .on(t.email)
      .where(sql`${t.userId} is null`),
  ],
);
