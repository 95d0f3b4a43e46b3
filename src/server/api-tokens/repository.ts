import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { afterInDescendingOrder, micros, type PageAfter } from '../pagination';
import { apiTokenSettings, apiTokens, users } from '../db/schema';
import type { ApiTokenScope } from '../../shared/schemas/api-tokens';

export type ApiTokenRecord = Omit<typeof apiTokens.$inferSelect, 'tokenHash' | 'userId' | 'kind' | 'grantId'>;

const visible = {
  id: apiTokens.id,
  name: apiTokens.name,
  scopes: apiTokens.scopes,
  hint: apiTokens.hint,
  createdAt: apiTokens.createdAt,
  lastUsedAt: apiTokens.lastUsedAt,
  expiresAt: apiTokens.expiresAt,
};

/** `limit` of the user's personal tokens after `after`, newest first (ties by id), each with its place. */
export async function listTokensOf(
  db: Db,
  userId: string,
  page: { limit: number; after: PageAfter | undefined },
): Promise<(ApiTokenRecord & { place: PageAfter })[]> {
  const own = and(eq(apiTokens.userId, userId), eq(apiTokens.kind, 'personal'));
  const rows = await db
    .select({ ...visible, at: micros(apiTokens.createdAt) })
    .from(apiTokens)
    .where(page.after ? and(own, afterInDescendingOrder(apiTokens.createdAt, apiTokens.id, page.after)) : own)
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    .limit(page.limit);
  return rows.map(({ at, ...row }) => ({ ...row, place: { at, key: row.id } }));
}

export async function countTokensOf(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(apiTokens)
    .where(and(eq(apiTokens.userId, userId), eq(apiTokens.kind, 'personal')));
  return row?.count ?? 0;
}

export async function insertToken(
  db: Db,
  token: {
    userId: string;
    name: string;
    scopes: ApiTokenScope[];
    tokenHash: string;
    hint: string;
    expiresAt: Date | null;
  },
): Promise<ApiTokenRecord> {
  const [row] = await db.insert(apiTokens).values(token).returning(visible);
  return row!;
}

/** Deletes the user's personal token; false when they have no such token (OAuth grants go as a whole). */
export async function deleteToken(db: Db, userId: string, tokenId: string): Promise<boolean> {
  const rows = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId), eq(apiTokens.kind, 'personal')))
    .returning({ id: apiTokens.id });
  return rows.length > 0;
}

/**
 * Everything a token request needs in one statement: whether the instance accepts tokens, and the token with
 * its user when the hash is known (none when revoked, since revoking deletes the row).
 */
export async function findTokenForRequest(db: Db, tokenHash: string) {
  const [row] = await db
    .select({
      enabled: apiTokenSettings.enabled,
      id: apiTokens.id,
      userId: apiTokens.userId,
      email: users.email,
      scopes: apiTokens.scopes,
      expiresAt: apiTokens.expiresAt,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokenSettings)
    .leftJoin(apiTokens, eq(apiTokens.tokenHash, tokenHash))
    .leftJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokenSettings.id, 1));
  return row;
}

export async function markTokenUsed(db: Db, tokenId: string, at: Date): Promise<void> {
  await db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, tokenId));
}

export async function tokensEnabled(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ enabled: apiTokenSettings.enabled })
    .from(apiTokenSettings)
    .where(eq(apiTokenSettings.id, 1));
  return row?.enabled ?? true;
}

export async function setTokensEnabled(db: Db, enabled: boolean): Promise<void> {
  await db
    .insert(apiTokenSettings)
    .values({ id: 1, enabled })
    .onConflictDoUpdate({ target: apiTokenSettings.id, set: { enabled, updatedAt: new Date() } });
}
