import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { unauthorized } from '../errors';
import { sessions } from '../db/schema';
import { verifyAccessToken, type AccessClaims } from '../services/tokens';

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
  const [session] = await database.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(eq(sessions.id, claims.sessionId), eq(sessions.userId, claims.userId), isNull(sessions.revokedAt)),
    )
    .limit(1);
  if (!session) throw unauthorized('Session has been revoked', 'session_not_found');
  return claims;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}
