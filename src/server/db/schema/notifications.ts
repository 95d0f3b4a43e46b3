import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './accounts';
import { documents } from './documents';
import { comments, commentThreads } from './comments';

/** What a person is told about comments (migration 0037, docs/notifications.md). */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'mention' | 'reply' | 'comment'>().notNull(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => commentThreads.id, { onDelete: 'cascade' }),
    commentId: uuid('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    documentTitle: text('document_title').notNull(),
    excerpt: text('excerpt').notNull(),
    inApp: boolean('in_app').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' })
      .notNull()
      .default(sql`date_trunc('milliseconds', clock_timestamp())`),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }),
    mailedAt: timestamp('mailed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc())],
);

/** When each person was last sent a digest. */
export const notificationDigests = pgTable('notification_digests', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true, mode: 'date' }).notNull(),
});
