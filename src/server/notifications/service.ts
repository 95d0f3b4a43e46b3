import type { ServerDependencies } from '../dependencies';
import { can, userRoles } from '../documents';
import { badRequest } from '../errors';
import { getUserSettings } from '../settings';
import type { NotificationSettings } from '../../shared/settings-defaults';
import {
  NOTIFICATION_EXCERPT_LENGTH,
  type AppNotification,
  type NotificationKind,
  type NotificationPage,
} from '../../shared/notifications';
import type { MarkRead } from '../../shared/schemas/notifications';
import {
  countUnread,
  findDocumentFacts,
  findNotifications,
  findThreadParticipants,
  insertNotifications,
  markRead,
  type NewNotification,
  type NotificationRow,
} from './repository';

/**
 * Notifications about comments (docs/notifications.md): a person is told when they are mentioned, when someone
 * replies in a thread they wrote in, and when someone opens a thread on a document they own. Never about their
 * own comment, at most once per comment (a mention wins over a reply, a reply over a new thread), and only while
 * they may read the document. Each kind has an in-app and an e-mail switch in the person's settings.
 */

export type NotificationsContext = Pick<ServerDependencies, 'db' | 'database' | 'log'>;

/** A comment just written, as comments tells it. */
export interface CommentNotice {
  documentId: string;
  threadId: string;
  commentId: string;
  /** A new thread (its first comment), a reply, or an edit (only `mentioned`, the newly mentioned, are told). */
  kind: 'thread' | 'reply' | 'edit';
  /** Null for a share-link visitor. */
  actorUserId: string | null;
  actorName: string;
  /** The comment's text, mentions as `@Name`. */
  text: string;
  /** The people it mentions, already known to be able to read the document. */
  mentioned: string[];
}

const SWITCHES: Record<
  NotificationKind,
  { inApp: keyof NotificationSettings; email: keyof NotificationSettings }
> = {
  mention: { inApp: 'mentionsInApp', email: 'mentionsEmail' },
  reply: { inApp: 'repliesInApp', email: 'repliesEmail' },
  comment: { inApp: 'commentsInApp', email: 'commentsEmail' },
};

function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > NOTIFICATION_EXCERPT_LENGTH
    ? `${flat.slice(0, NOTIFICATION_EXCERPT_LENGTH - 1).trimEnd()}…`
    : flat;
}

/** Who is told what about this comment. */
async function recipients(ctx: NotificationsContext, notice: CommentNotice, ownerId: string) {
  const kinds = new Map<string, NotificationKind>();
  for (const userId of notice.mentioned) kinds.set(userId, 'mention');
  if (notice.kind === 'reply') {
    for (const userId of await findThreadParticipants(ctx.db, notice.threadId)) {
      if (!kinds.has(userId)) kinds.set(userId, 'reply');
    }
  } else if (notice.kind === 'thread' && !kinds.has(ownerId)) {
    kinds.set(ownerId, 'comment');
  }
  if (notice.actorUserId) kinds.delete(notice.actorUserId);
  if (kinds.size === 0) return kinds;
  const roleOf = await userRoles(
    ctx.database,
    [...kinds.keys()].map((userId) => ({ userId, documentId: notice.documentId })),
  );
  for (const userId of [...kinds.keys()]) {
    if (!can(roleOf({ userId, documentId: notice.documentId }), 'read')) kinds.delete(userId);
  }
  return kinds;
}

/**
 * Makes the notifications a new comment calls for. Never throws: a failure here is logged and the comment,
 * already saved, stands.
 */
export async function notifyAboutComment(ctx: NotificationsContext, notice: CommentNotice): Promise<void> {
  try {
    const document = await findDocumentFacts(ctx.db, notice.documentId);
    if (!document) return;
    const kinds = await recipients(ctx, notice, document.ownerId);
    const rows: NewNotification[] = [];
    for (const [userId, kind] of kinds) {
      const settings = (await getUserSettings(ctx.db, userId)).notifications;
      const inApp = settings[SWITCHES[kind].inApp];
      const email = settings[SWITCHES[kind].email];
      if (!inApp && !email) continue;
      rows.push({
        userId,
        kind,
        documentId: notice.documentId,
        threadId: notice.threadId,
        commentId: notice.commentId,
        actorUserId: notice.actorUserId,
        actorName: notice.actorName,
        documentTitle: document.title,
        excerpt: excerptOf(notice.text),
        inApp,
        // Nothing to mail: the digest need not look at it.
        mailedAt: email ? null : new Date(),
      });
    }
    await insertNotifications(ctx.db, rows);
  } catch (error) {
    ctx.log.warn({ err: error, documentId: notice.documentId }, 'notifications for a comment failed');
  }
}

function presentNotification(row: NotificationRow): AppNotification {
  return {
    id: row.id,
    kind: row.kind,
    documentId: row.documentId,
    documentTitle: row.documentTitle,
    threadId: row.threadId,
    actorName: row.actorName,
    excerpt: row.excerpt,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
  };
}

/** The cursor names the last notification given (its time and id), opaque to the client. */
function decodeCursor(cursor: string | undefined): { createdAt: Date; id: string } | undefined {
  if (cursor === undefined) return undefined;
  const [time, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(time ?? '');
  if (Number.isNaN(createdAt.getTime()) || !id || !/^[0-9a-f-]{36}$/.test(id)) {
    throw badRequest('cursor: not a cursor from this list');
  }
  return { createdAt, id };
}

const encodeCursor = (row: NotificationRow) =>
  Buffer.from(`${row.createdAt.toISOString()}|${row.id}`, 'utf8').toString('base64url');

export async function listNotifications(
  ctx: NotificationsContext,
  userId: string,
  query: { cursor?: string | undefined; limit: number },
): Promise<NotificationPage> {
  const after = decodeCursor(query.cursor);
  const [rows, unreadCount] = await Promise.all([
    findNotifications(ctx.db, userId, after, query.limit + 1),
    countUnread(ctx.db, userId),
  ]);
  const page = rows.slice(0, query.limit);
  return {
    notifications: page.map(presentNotification),
    nextCursor: rows.length > query.limit ? encodeCursor(page[page.length - 1]!) : null,
    unreadCount,
  };
}

export async function unreadCount(ctx: NotificationsContext, userId: string): Promise<number> {
  return countUnread(ctx.db, userId);
}

export async function markNotificationsRead(
  ctx: NotificationsContext,
  userId: string,
  input: MarkRead,
): Promise<number> {
  await markRead(ctx.db, userId, 'all' in input ? 'all' : input.ids);
  return countUnread(ctx.db, userId);
}
