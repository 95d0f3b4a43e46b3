import { and, count, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { comments, documents, notificationDigests, notifications, users } from '../db/schema';

/** Every SQL statement on notifications and notification_digests; the service decides what to run. */

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;

/** The document's owner and title, or undefined when it is gone or in the trash. */
export async function findDocumentFacts(
  db: Db,
  documentId: string,
): Promise<{ ownerId: string; title: string } | undefined> {
  const [row] = await db
    .select({ ownerId: documents.userId, title: documents.title })
    .from(documents)
    .where(and(eq(documents.id, documentId), isNull(documents.trashedAt)));
  return row;
}

/** The signed-in people who wrote in the thread (its author and everyone who replied). */
export async function findThreadParticipants(db: Db, threadId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: comments.authorUserId })
    .from(comments)
    .where(and(eq(comments.threadId, threadId), sql`${comments.authorUserId} is not null`));
  return rows.map((row) => row.userId!);
}

export async function insertNotifications(db: Db, rows: NewNotification[]): Promise<void> {
  if (rows.length > 0) await db.insert(notifications).values(rows);
}

interface PageCursor {
  createdAt: Date;
  id: string;
}

/** One page of the person's in-app notifications, newest first, after `cursor`. */
export async function findNotifications(
  db: Db,
  userId: string,
  cursor: PageCursor | undefined,
  limit: number,
): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.inApp, true),
        cursor
          ? or(
              lt(notifications.createdAt, cursor.createdAt),
              and(eq(notifications.createdAt, cursor.createdAt), lt(notifications.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(
      and(eq(notifications.userId, userId), eq(notifications.inApp, true), isNull(notifications.readAt)),
    );
  return row?.n ?? 0;
}

/** Marks the person's notifications read: those of `ids`, or all. Others' ids are left alone. */
export async function markRead(db: Db, userId: string, ids: string[] | 'all'): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        ids === 'all' ? undefined : inArray(notifications.id, ids),
      ),
    );
}

/**
 * The digest's first step: rows made before `cutoff`, unread and not yet taken, that no digest may send (the
 * person's e-mail switch for the kind is off, or their address is not confirmed) are marked taken, so they
 * are not looked at again. An explicit `false` in the settings is the only "off" (a missing key is the default,
 * on).
 */
export async function passOverUnmailable(db: Db, cutoff: Date): Promise<void> {
  await db.execute(sql`
    update notifications n set mailed_at = now()
    from users u left join user_settings s on s.user_id = u.id
    where n.user_id = u.id and n.mailed_at is null and n.read_at is null and n.created_at < ${cutoff.toISOString()}::timestamptz
      and (u.email_confirmed_at is null
        or coalesce(s.notifications -> (case n.kind
             when 'mention' then 'mentionsEmail' when 'reply' then 'repliesEmail' else 'commentsEmail' end),
           'true'::jsonb) = 'false'::jsonb)`);
}

/** People with rows waiting for a digest (made before `cutoff`, unread, not taken), a batch at a time. */
export async function findDigestRecipients(db: Db, cutoff: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .where(
      and(isNull(notifications.mailedAt), isNull(notifications.readAt), lt(notifications.createdAt, cutoff)),
    )
    .limit(limit);
  return rows.map((row) => row.userId);
}

/**
 * Takes the person's digest turn: true when their last digest was before `notBefore` (or there was none), and
 * records `now` as their last one. A conditional write, so of several instances asking at once one gets it.
 */
export async function claimDigestTurn(db: Db, userId: string, now: Date, notBefore: Date): Promise<boolean> {
  const rows = await db
    .insert(notificationDigests)
    .values({ userId, lastSentAt: now })
    .onConflictDoUpdate({
      target: notificationDigests.userId,
      set: { lastSentAt: now },
      setWhere: lt(notificationDigests.lastSentAt, notBefore),
    })
    .returning({ userId: notificationDigests.userId });
  return rows.length > 0;
}

/** Marks the person's waiting rows taken and returns them, oldest first: only the instance that marked a row sends it. */
export async function takeDigestRows(db: Db, userId: string, cutoff: Date): Promise<NotificationRow[]> {
  const rows = await db
    .update(notifications)
    .set({ mailedAt: sql`now()` })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.mailedAt),
        isNull(notifications.readAt),
        lt(notifications.createdAt, cutoff),
      ),
    )
    .returning();
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** The address a digest goes to (confirmed addresses only), or undefined. */
export async function findConfirmedAddress(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.id, userId), sql`${users.emailConfirmedAt} is not null`));
  return row?.email;
}
