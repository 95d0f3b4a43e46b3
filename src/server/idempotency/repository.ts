import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';

export interface KeyOwner {
  userId: string;
  key: string;
}

export interface KeyUse extends KeyOwner {
  method: string;
  path: string;
  bodyHash: string;
  expiresAt: Date;
}

export type KeyRecord = typeof idempotencyKeys.$inferSelect;

const ofOwner = ({ userId, key }: KeyOwner) =>
  and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

/**
 * Claims the key for a request (true), or answers the row of the request that holds it. An expired row is
 * dropped first, so a key may be used again once its day is over. The primary key decides between two
 * requests racing for one key: one inserts, the other reads the first's row.
 */
export async function claimKey(db: Db, use: KeyUse, now: Date): Promise<true | KeyRecord> {
  for (let attempt = 0; attempt < 3; attempt++) {
    await db.delete(idempotencyKeys).where(and(ofOwner(use), lt(idempotencyKeys.expiresAt, now)));
    const inserted = await db
      .insert(idempotencyKeys)
      .values(use)
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) return true;
    const [row] = await db.select().from(idempotencyKeys).where(ofOwner(use)).limit(1);
    // Gone between the insert and the read (its request failed and let the key go): claim it again.
    if (row) return row;
  }
  throw new Error('idempotency key could not be claimed');
}

/** Keeps the answer of the request that claimed the key, to replay it. */
export async function completeKey(
  db: Db,
  owner: KeyOwner,
  answer: { status: number; headers: Record<string, string>; body: string },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ status: answer.status, responseHeaders: answer.headers, responseBody: answer.body })
    .where(ofOwner(owner));
}

/** Lets the key go (its request failed and changed nothing), so a retry runs afresh. */
export async function releaseKey(db: Db, owner: KeyOwner): Promise<void> {
  await db.delete(idempotencyKeys).where(and(ofOwner(owner), isNull(idempotencyKeys.status)));
}

/** Deletes every expired key; answers how many. */
export async function purgeExpiredKeys(db: Db, now: Date): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, now))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}
