import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import { unauthorized } from '../errors';
import { sessions } from '../db/schema';
import { isRecentlyActiveSession, rememberActiveSession } from '../accounts/session-cache';
import { verifyAccessToken, type AccessClaims } from '../accounts/tokens';

export type Principal = AccessClaims;

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1]?.trim() || undefined;
}

/**
 * The signed-in user of a request, or 401. The token's signature and expiry are checked, and its
 * session must not be revoked (sign-out, refresh-token reuse), so a signed-out token stops working at once.
 */
export async function requireUser(request: FastifyRequest): Promise<Principal> {
  if (request.principal) return request.principal;
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  const principal = await authenticateToken(request.server, token);
  request.principal = principal;
  return principal;
}

/**
 * The bearer token's verified claims (signature, expiry) WITHOUT the session check, for hot routes that
 * check the session inside their own SQL statement: one database round trip instead of two (bench:api).
 * Such a route must call requireUser(request) whenever its statement finds nothing, so that a signed-out
 * session still answers 401 and never sees or changes data (see documents/routes.ts, documents/service.ts).
 */
export async function requireTokenClaims(request: FastifyRequest): Promise<Principal> {
  if (request.principal) return request.principal;
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  return verifyAccessToken(request.server.config.JWT_SECRET, token);
}

/** Like requireUser but anonymous requests get `undefined` instead of 401 (a bad token is still 401). */
export async function optionalUser(request: FastifyRequest): Promise<Principal | undefined> {
  if (!bearerToken(request)) return undefined;
  return requireUser(request);
}

/** Also used by the collaboration socket, which has no Fastify request. */
export async function authenticateToken(
  { config, database }: { config: Config; database: Database },
  token: string,
): Promise<Principal> {
  const claims = await verifyAccessToken(config.JWT_SECRET, token);
  if (isRecentlyActiveSession(database.db, claims.sessionId, claims.userId)) return claims;
  const [session] = await activeSessionQuery(database.db).execute({
    sessionId: claims.sessionId,
    userId: claims.userId,
  });
  if (!session) throw unauthorized('Session has been revoked', 'session_not_found');
  rememberActiveSession(database.db, claims.sessionId, claims.userId);
  return claims;
}

/**
 * The per-request session check as a prepared statement, built once per database: building the Drizzle
 * query each time cost more CPU than running it (bench:api, docs/performance.md).
 */
const activeSessionQueries = new WeakMap<Db, ReturnType<typeof buildActiveSessionQuery>>();
function buildActiveSessionQuery(db: Db) {
  return db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(sessions.userId, sql.placeholder('userId')),
        isNull(sessions.revokedAt),
      ),
    )
    .limit(1)
    .prepare('qw_active_session');
}
function activeSessionQuery(db: Db) {
  let query = activeSessionQueries.get(db);
  if (!query) {
    query = buildActiveSessionQuery(db);
    activeSessionQueries.set(db, query);
  }
  return query;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}
