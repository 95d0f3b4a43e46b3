import type { ServerDependencies } from '../dependencies';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../shared/constants';
import type { LogoutScope, Session } from '../../shared/schemas/auth';
import type { Db } from '../db/client';
import { refreshTokens, sessions, users } from '../db/schema';
import { unauthorized } from '../errors';
import { presentUser, type UserRow } from './users';
import { forgetActiveSessions, hashToken, randomToken, signAccessToken } from '../plugins';

/**
 * A session is one sign-in: a row in `sessions` (the refresh-token family) whose access tokens carry its id.
 * Refresh tokens rotate on every use; presenting one that was already rotated means it was copied, so the
 * whole family is revoked (RFC 6819, section 5.2.2.3) and every access token of that session stops working.
 */

/** A refresh token unused for this long is dead; each rotation starts a fresh period (sliding expiry). */
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

export type SessionContext = Pick<ServerDependencies, 'db' | 'config'>;

const refreshTokenInvalid = (message: string) => unauthorized(message, 'refresh_token_invalid');

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function issueSession(
  { config }: SessionContext,
  tx: Db | Tx,
  sessionId: string,
  user: UserRow,
): Promise<Session> {
  const refreshToken = randomToken();
  await tx.insert(refreshTokens).values({ sessionId, tokenHash: hashToken(refreshToken) });
  const { token, expiresAt } = await signAccessToken(config.JWT_SECRET, {
    userId: user.id,
    sessionId,
    email: user.email,
  });
  return {
    access_token: token,
    refresh_token: refreshToken,
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    expires_at: expiresAt,
    token_type: 'bearer',
    user: presentUser(user),
  };
}

/** Longest User-Agent kept for the sessions list; real ones are a few hundred characters. */
const MAX_USER_AGENT_LENGTH = 512;

/** Signs the user in: a new session with its first refresh token and an access token. */
export async function startSession(ctx: SessionContext, user: UserRow, userAgent = ''): Promise<Session> {
  return ctx.db.transaction(async (tx) => {
    const [session] = await tx
      .insert(sessions)
      .values({ userId: user.id, userAgent: userAgent.slice(0, MAX_USER_AGENT_LENGTH) })
      .returning({ id: sessions.id });
    if (!session) throw new Error('session insert returned nothing');
    return issueSession(ctx, tx, session.id, user);
  });
}

type RefreshOutcome =
  | { kind: 'ok'; session: Session }
  | { kind: 'reused' }
  | { kind: 'unknown' }
  | { kind: 'expired' }
  | { kind: 'revoked' };

/** Exchanges a refresh token for a new session pair; 401 refresh_token_invalid otherwise. */
export async function refreshSession(ctx: SessionContext, refreshToken: string): Promise<Session> {
  const tokenHash = hashToken(refreshToken);
  // Errors thrown inside a transaction roll it back, and the reuse case must commit its revocation:
  // so the transaction returns an outcome and the error is thrown afterwards.
  const outcome = await ctx.db.transaction(async (tx): Promise<RefreshOutcome> => {
    // Atomic claim: of two concurrent uses of one token, exactly one wins; the other is a reuse.
    const [claimed] = await tx
      .update(refreshTokens)
      .set({ rotatedAt: new Date() })
      .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.rotatedAt)))
      .returning({ sessionId: refreshTokens.sessionId, createdAt: refreshTokens.createdAt });
    if (!claimed) {
      const [known] = await tx
        .select({ sessionId: refreshTokens.sessionId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, tokenHash))
        .limit(1);
      if (!known) return { kind: 'unknown' };
      await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.id, known.sessionId), isNull(sessions.revokedAt)));
      return { kind: 'reused' };
    }
    if (claimed.createdAt.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000 < Date.now())
      return { kind: 'expired' };
    const [row] = await tx
      .select({ user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, claimed.sessionId), isNull(sessions.revokedAt)))
      .limit(1);
    if (!row) return { kind: 'revoked' };
    await tx.update(sessions).set({ lastSeenAt: new Date() }).where(eq(sessions.id, claimed.sessionId));
    return { kind: 'ok', session: await issueSession(ctx, tx, claimed.sessionId, row.user) };
  });
  // A reused token revoked its session: requests with that session's access tokens must stop now.
  if (outcome.kind === 'reused') forgetActiveSessions(ctx.db);
  switch (outcome.kind) {
    case 'ok':
      return outcome.session;
    case 'reused':
      throw refreshTokenInvalid('Invalid Refresh Token: Already Used');
    case 'expired':
      throw refreshTokenInvalid('Invalid Refresh Token: Expired');
    case 'revoked':
      throw refreshTokenInvalid('Invalid Refresh Token: Session Revoked');
    case 'unknown':
      throw refreshTokenInvalid('Invalid Refresh Token: Refresh Token Not Found');
  }
}

/** Sign-out: `local` ends this session, `global` every session of the user, `others` all but this one. */
export async function revokeSessions(
  db: Db,
  principal: { userId: string; sessionId: string },
  scope: LogoutScope,
): Promise<void> {
  const now = new Date();
  const where =
    scope === 'local'
      ? and(eq(sessions.id, principal.sessionId), eq(sessions.userId, principal.userId))
      : scope === 'global'
        ? eq(sessions.userId, principal.userId)
        : and(eq(sessions.userId, principal.userId), ne(sessions.id, principal.sessionId));
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(where, isNull(sessions.revokedAt)));
  forgetActiveSessions(db);
}
