import { and, eq, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import { unauthorized } from '../errors';
import { API_TOKEN_SECRET_PREFIXES } from '../../shared/constants';
import type { ApiTokenScope } from '../../shared/schemas/api-tokens';
import { sessions } from '../db/schema';
import { LAST_SEEN_UPDATE_MS, isRecentlyActiveSession, rememberActiveSession } from './session-cache';
import { verifyAccessToken, type AccessClaims } from './tokens';

/**
 * Who a request acts for. A personal API token's requests (checked in full by api-tokens/gate.ts before the
 * route runs) carry `apiToken`, and their `sessionId` is the token's id, which matches no session: a statement
 * that checks the session inline finds nothing for them rather than something wrong.
 */
export type Principal = AccessClaims & { apiToken?: { id: string; scopes: readonly ApiTokenScope[] } };

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1]?.trim() || undefined;
}

/** The request's bearer secret when it is an API token's (a personal token or an OAuth access token). */
export function apiTokenSecret(request: FastifyRequest): string | undefined {
  const token = bearerToken(request);
  return token && API_TOKEN_SECRET_PREFIXES.some((prefix) => token.startsWith(prefix)) ? token : undefined;
}

/**
 * A bearer token that is not a session's access token: an API token. Only the API token gate
 * authenticates those; reaching requireUser with one unauthenticated means the gate did not run for it.
 */
function refuseUncheckedApiToken(token: string): void {
  if (API_TOKEN_SECRET_PREFIXES.some((prefix) => token.startsWith(prefix))) {
    throw unauthorized('Invalid token', 'bad_jwt');
  }
}

/**
 * The signed-in user of a request, or 401. The token's signature and expiry are checked, and its
 * session must not be revoked (sign-out, refresh-token reuse), so a signed-out token stops working at once.
 */
export async function requireUser(request: FastifyRequest): Promise<Principal> {
  if (request.principal) return request.principal;
  const token = bearerToken(request);
  if (!token) throw unauthorized();
  refuseUncheckedApiToken(token);
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
  refuseUncheckedApiToken(token);
  return verifyAccessToken(request.server.config.JWT_SECRET, token);
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
  if (Date.now() - session.lastSeenAt.getTime() > LAST_SEEN_UPDATE_MS) {
    await database.db
      .update(sessions)
      .set({ lastSeenAt: new Date() })
      .where(eq(sessions.id, claims.sessionId));
  }
  rememberActiveSession(database.db, claims.sessionId, claims.userId);
  return claims;
}

/**
 * "This session is still signed in", the one definition: the session exists, is the user's, and was not
 * revoked (sign-out, refresh-token reuse, password change). Requests (authenticateToken), statements that
 * check the session inline (documents/repository.ts, see requireTokenClaims) and the collaboration socket's
 * re-checks (isSessionSignedIn, signedInSessions) all use it. Values or prepared-statement placeholders.
 */
function sessionSignedIn(sessionId: SQLWrapper | string, userId: SQLWrapper | string): SQL {
  return and(eq(sessions.id, sessionId), eq(sessions.userId, userId), notRevoked)!;
}

const notRevoked = isNull(sessions.revokedAt);

/** sessionSignedIn as a condition for a statement on another table. */
export function sessionSignedInExists(sessionId: SQLWrapper | string, userId: SQLWrapper | string): SQL {
  return sql`exists (select 1 from ${sessions} where ${sessionSignedIn(sessionId, userId)})`;
}

/**
 * Whether the user's session is still signed in, asked of the database now (no cache): the collaboration
 * socket's re-check of one connection.
 */
export async function isSessionSignedIn(
  database: Database,
  userId: string,
  sessionId: string,
): Promise<boolean> {
  const [row] = await activeSessionQuery(database.db).execute({ sessionId, userId });
  return row !== undefined;
}

/**
 * The signed-in sessions among `sessionIds`, each with its user (the caller compares it with the user it
 * expects, which completes sessionSignedIn): the socket's sweep re-checks every connection with this one
 * small statement. Raw SQL on purpose (rendered once from the same condition): this runs every second, and
 * with PGlite (on this thread) each statement through Drizzle cost about twice as much.
 */
export async function signedInSessions(
  database: Database,
  sessionIds: Iterable<string>,
): Promise<Map<string, string>> {
  const rows = (await database.exec(SIGNED_IN_SESSIONS_SQL, [[...sessionIds].join(',')])) as {
    id: string;
    user_id: string;
  }[];
  return new Map(rows.map((row) => [row.id, row.user_id]));
}

const SIGNED_IN_SESSIONS_SQL = new PgDialect().sqlToQuery(
  sql`select ${sessions.id}, ${sessions.userId} from ${sessions}
    where ${sessions.id} = any(string_to_array(${sql.placeholder('ids')}::text, ',')::uuid[]) and ${notRevoked}`,
).sql;

/**
 * The per-request session check as a prepared statement, built once per database: building the Drizzle
 * query each time cost more CPU than running it (bench:api, docs/performance.md).
 */
const activeSessionQueries = new WeakMap<Db, ReturnType<typeof buildActiveSessionQuery>>();
function buildActiveSessionQuery(db: Db) {
  return db
    .select({ id: sessions.id, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(sessionSignedIn(sql.placeholder('sessionId'), sql.placeholder('userId')))
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
