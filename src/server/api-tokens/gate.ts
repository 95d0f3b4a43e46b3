import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tokenMay, type DocumentAbility } from '../documents';
import { forbidden, tooManyRequests, unauthorized } from '../errors';
import { apiTokenSecret, hashToken, type Principal } from '../plugins';
import { API_TOKEN_REQUESTS_PER_MINUTE } from '../../shared/constants';
import type { ApiTokenScope } from '../../shared/schemas/api-tokens';
import { findTokenForRequest, markTokenUsed } from './repository';

/**
 * The routes a personal API token may call, each with the document ability it needs (documents/policy.ts
 * narrows it to the token's scopes). Every other route answers a token 403 `api_token_not_allowed`: accounts
 * (password, e-mail, sessions), the tokens themselves, billing, admin settings, sharing, AI and the live socket
 * take a signed-in session only, and a route added later stays closed to tokens until it is listed here.
 */
export const TOKEN_ROUTES: Readonly<Record<string, DocumentAbility>> = {
  'GET /api/documents': 'read',
  'POST /api/documents': 'write',
  'GET /api/documents/:id': 'read',
  'PATCH /api/documents/:id': 'write',
  'DELETE /api/documents/:id': 'delete',
  'GET /api/documents/:id/export': 'export',
  'GET /api/documents/:id/versions': 'seeVersions',
  'GET /api/documents/:id/versions/:versionId': 'seeVersions',
  'POST /api/documents/:id/versions': 'manageVersions',
  'GET /api/documents/:id/threads': 'read',
  'POST /api/documents/:id/threads': 'comment',
  'PATCH /api/documents/:id/threads/:threadId': 'comment',
  'DELETE /api/documents/:id/threads/:threadId': 'comment',
  'POST /api/documents/:id/threads/:threadId/comments': 'comment',
  'PATCH /api/documents/:id/threads/:threadId/comments/:commentId': 'comment',
  'DELETE /api/documents/:id/threads/:threadId/comments/:commentId': 'comment',
  'GET /api/search': 'read',
  'GET /api/search/documents': 'read',
};

/** The ability a token needs for the route `method url` (as Fastify registered it), or undefined: not for tokens. */
function tokenRouteAbility(method: string, url: string): DocumentAbility | undefined {
  const path = url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url;
  return TOKEN_ROUTES[`${method === 'HEAD' ? 'GET' : method} ${path}`];
}

/** Last-used times are written at most this often per token: a script's every request need not be a write. */
const LAST_USED_RESOLUTION_MS = 60_000;
const RATE_WINDOW_MS = 60_000;

function refuseScope(scopes: readonly ApiTokenScope[], ability: DocumentAbility): never {
  if (scopes.includes('suggest') && tokenMay(['write'], ability)) {
    throw forbidden(
      'This token may only suggest changes, and the REST API does not take suggestions: use a token with the write scope.',
      'api_token_suggest_only',
    );
  }
  throw forbidden(
    `This token's scopes do not allow this request (it needs ${ability}).`,
    'insufficient_scope',
  );
}

/** Checks one token request: the token, the instance's switch, the rate limit, then the ability. */
type ApiTokenCheck = (
  request: FastifyRequest,
  reply: FastifyReply,
  secret: string,
  ability: DocumentAbility | undefined,
) => Promise<Principal>;

/** One check (and so one rate-limit budget per token) for every way a token comes in: REST and MCP. */
const checks = new WeakMap<object, ApiTokenCheck>();

/**
 * The token check of this server, made once: `ability` undefined means the request is not one a token may
 * make (403 `api_token_not_allowed`, after the token itself was checked and counted).
 */
export function apiTokenCheck(app: FastifyInstance): ApiTokenCheck {
  let check = checks.get(app.deps);
  if (!check) {
    check = createApiTokenCheck(app);
    checks.set(app.deps, check);
  }
  return check;
}

function createApiTokenCheck(app: FastifyInstance): ApiTokenCheck {
  const tokenOf = new WeakMap<FastifyRequest, string>();
  const rateCheck = app.createRateLimit({
    max: API_TOKEN_REQUESTS_PER_MINUTE,
    timeWindow: RATE_WINDOW_MS,
    keyGenerator: (request: FastifyRequest) => `api-token:${tokenOf.get(request) ?? request.ip}`,
  });

  return async (request, reply, secret, ability) => {
    const db = app.database.db;
    const found = await findTokenForRequest(db, hashToken(secret));
    if (found && !found.enabled) {
      throw forbidden('API tokens are turned off on this server.', 'api_tokens_disabled');
    }
    if (!found?.id || !found.userId || !found.email || !found.scopes) {
      throw unauthorized('This API token is not valid (revoked, or never issued).', 'invalid_api_token');
    }
    const now = new Date();
    if (found.expiresAt && found.expiresAt <= now) {
      throw unauthorized('This API token has expired.', 'api_token_expired');
    }

    tokenOf.set(request, found.id);
    const rate = await rateCheck(request);
    // Always a count here (isAllowed is true only for an allow list, which this limiter has none of).
    if (!rate.isAllowed) {
      reply.header('ratelimit-limit', String(rate.max));
      reply.header('ratelimit-remaining', String(rate.remaining));
      reply.header('ratelimit-reset', String(rate.ttlInSeconds));
      if (rate.isExceeded) {
        reply.header('retry-after', String(rate.ttlInSeconds));
        throw tooManyRequests(
          `Too many requests with this token, please try again in ${rate.ttlInSeconds} seconds.`,
        );
      }
    }

    if (!ability) {
      throw forbidden(
        'API tokens cannot make this request; it needs a signed-in session.',
        'api_token_not_allowed',
      );
    }
    if (!tokenMay(found.scopes, ability)) refuseScope(found.scopes, ability);

    if (!found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await markTokenUsed(db, found.id, now);
    }
    return {
      userId: found.userId,
      email: found.email,
      sessionId: found.id,
      apiToken: { id: found.id, scopes: found.scopes },
    };
  };
}

/**
 * Authenticates `Authorization: Bearer qw_pat_…` requests (and OAuth access tokens, `qw_oat_…`) before their route runs (an onRequest hook on
 * every /api route), and sets the request's principal, which requireUser then returns: the token's user,
 * narrowed to its scopes. Checked on every request against the database, so a revocation, an expiry or the
 * instance's switch takes effect on the next request. Each token has its own rate limit, told in
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds) on every answer it gets.
 */
export function registerApiTokenGate(app: FastifyInstance): void {
  const check = apiTokenCheck(app);
  app.addHook('onRequest', async (request, reply) => {
    const secret = apiTokenSecret(request);
    if (!secret) return;
    const ability = tokenRouteAbility(request.method, request.routeOptions.url ?? '');
    request.principal = await check(request, reply, secret, ability);
  });
}
