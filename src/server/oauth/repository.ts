import { and, desc, eq, inArray, isNull, lte, max } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiTokens, oauthClients, oauthCodes, oauthGrants, oauthRefreshTokens } from '../db/schema';
import type { ApiTokenScope } from '../../shared/schemas/api-tokens';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Executor = Db | Tx;

export type OAuthClient = typeof oauthClients.$inferSelect;

export async function insertClient(
  db: Executor,
  client: typeof oauthClients.$inferInsert,
): Promise<OAuthClient> {
  const [row] = await db.insert(oauthClients).values(client).returning();
  return row!;
}

export async function findClient(db: Executor, id: string): Promise<OAuthClient | undefined> {
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.id, id));
  return row;
}

export async function insertCode(db: Executor, code: typeof oauthCodes.$inferInsert): Promise<void> {
  await db.insert(oauthCodes).values(code);
}

/** Marks the code used and returns it, or nothing when it is unknown or was used before (one statement). */
export async function useCode(db: Executor, codeHash: string, at: Date) {
  const [row] = await db
    .update(oauthCodes)
    .set({ usedAt: at })
    .where(and(eq(oauthCodes.codeHash, codeHash), isNull(oauthCodes.usedAt)))
    .returning();
  return row;
}

export async function findCode(db: Executor, codeHash: string) {
  const [row] = await db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash));
  return row;
}

export async function setCodeGrant(db: Executor, codeHash: string, grantId: string): Promise<void> {
  await db.update(oauthCodes).set({ grantId }).where(eq(oauthCodes.codeHash, codeHash));
}

/** Codes past their minute, used or not: nothing needs them once the reuse window is over. */
export async function deleteStaleCodes(db: Executor, before: Date): Promise<void> {
  await db.delete(oauthCodes).where(lte(oauthCodes.expiresAt, before));
}

export async function insertGrant(
  db: Executor,
  grant: { userId: string; clientId: string; scopes: ApiTokenScope[] },
): Promise<string> {
  const [row] = await db.insert(oauthGrants).values(grant).returning({ id: oauthGrants.id });
  return row!.id;
}

/** Deletes the grant, and with it (cascade) its access and refresh tokens. */
export async function deleteGrant(db: Executor, grantId: string): Promise<void> {
  await db.delete(oauthGrants).where(eq(oauthGrants.id, grantId));
}

/** Deletes the user's grant; false when they have no such grant. */
export async function deleteGrantOf(db: Executor, userId: string, grantId: string): Promise<boolean> {
  const rows = await db
    .delete(oauthGrants)
    .where(and(eq(oauthGrants.id, grantId), eq(oauthGrants.userId, userId)))
    .returning({ id: oauthGrants.id });
  return rows.length > 0;
}

export async function findGrant(db: Executor, grantId: string) {
  const [row] = await db
    .select({ grant: oauthGrants, clientName: oauthClients.name })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .where(eq(oauthGrants.id, grantId));
  return row;
}

/** The user's grants with their client's name and the last use of any of their access tokens. */
export function listGrantsOf(db: Executor, userId: string) {
  return db
    .select({
      id: oauthGrants.id,
      clientName: oauthClients.name,
      scopes: oauthGrants.scopes,
      createdAt: oauthGrants.createdAt,
      lastUsedAt: max(apiTokens.lastUsedAt),
    })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .leftJoin(apiTokens, eq(apiTokens.grantId, oauthGrants.id))
    .where(eq(oauthGrants.userId, userId))
    .groupBy(oauthGrants.id, oauthClients.name)
    .orderBy(desc(oauthGrants.createdAt));
}

export async function insertRefreshToken(
  db: Executor,
  token: { tokenHash: string; grantId: string; expiresAt: Date },
): Promise<void> {
  await db.insert(oauthRefreshTokens).values(token);
}

/** Marks the live refresh token used and returns it, or nothing when it is unknown or was used before. */
export async function useRefreshToken(db: Executor, tokenHash: string, at: Date) {
  const [row] = await db
    .update(oauthRefreshTokens)
    .set({ usedAt: at })
    .where(and(eq(oauthRefreshTokens.tokenHash, tokenHash), isNull(oauthRefreshTokens.usedAt)))
    .returning();
  return row;
}

export async function findRefreshToken(db: Executor, tokenHash: string) {
  const [row] = await db.select().from(oauthRefreshTokens).where(eq(oauthRefreshTokens.tokenHash, tokenHash));
  return row;
}

/** A grant's access token: an api_tokens row the token check treats like any other. */
export async function insertAccessToken(
  db: Executor,
  token: {
    userId: string;
    grantId: string;
    name: string;
    scopes: ApiTokenScope[];
    tokenHash: string;
    hint: string;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(apiTokens).values({ ...token, kind: 'oauth' });
}

/** Deletes the grant's access tokens that have expired: a grant's refreshes would otherwise pile them up. */
export async function deleteExpiredAccessTokens(db: Executor, grantId: string, now: Date): Promise<void> {
  await db.delete(apiTokens).where(and(eq(apiTokens.grantId, grantId), lte(apiTokens.expiresAt, now)));
}

/** Deletes an access token of one of the client's grants, by its secret's hash (token revocation). */
export async function deleteAccessTokenOfClient(
  db: Executor,
  tokenHash: string,
  clientId: string,
): Promise<void> {
  await db
    .delete(apiTokens)
    .where(
      and(
        eq(apiTokens.tokenHash, tokenHash),
        eq(apiTokens.kind, 'oauth'),
        inArray(
          apiTokens.grantId,
          db.select({ id: oauthGrants.id }).from(oauthGrants).where(eq(oauthGrants.clientId, clientId)),
        ),
      ),
    );
}
