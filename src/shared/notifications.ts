/**
 * Notifications about comments (docs/notifications.md): types and timings, zod-free for the browser's bundle.
 */

export type NotificationKind = 'mention' | 'reply' | 'comment';

/** How often the header's bell asks for the unread count. */
export const NOTIFICATIONS_POLL_MS = 30_000;
/** Notifications per page of `GET /api/notifications`. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
/** Ids one `POST /api/notifications/read` may name. */
export const MAX_NOTIFICATIONS_READ_AT_ONCE = 100;
/** A notification still unread this long after it was made goes into the person's e-mail digest. */
export const NOTIFICATION_DIGEST_DELAY_MS = 5 * 60_000;
/** At most one digest per person in this long. */
export const NOTIFICATION_DIGEST_INTERVAL_MS = 30 * 60_000;
/** How often each server instance looks for digests to send. */
export const NOTIFICATION_DIGEST_CHECK_MS = 60_000;
/** The comment's first characters a notification shows. */
export const NOTIFICATION_EXCERPT_LENGTH = 140;

export interface AppNotification {
  id: string;
  kind: NotificationKind;
  documentId: string;
  documentTitle: string;
  threadId: string;
  /** Who wrote the comment, as named then. */
  actorName: string;
  /** The comment's first words, mentions as `@Name`. */
  excerpt: string;
  createdAt: string;
  readAt: string | null;
}

export interface NotificationPage {
  notifications: AppNotification[];
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: string | null;
  unreadCount: number;
}

export interface UnreadCount {
  unreadCount: number;
}
