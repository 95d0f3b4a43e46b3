import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_TTL_MS } from '../../shared/constants';
import { AppError, badRequest } from '../errors';
import { requireUser } from '../plugins';
import { claimKey, completeKey, purgeExpiredKeys, releaseKey, type KeyOwner } from './repository';

/**
 * `Idempotency-Key` on the REST API's creates (docs/api.md), for every route below at once: the first request
 * with a key claims it (keyed by the acting user and the key) and its answer is kept for a day; the same key
 * with the same method, path and body replays that answer (`Idempotent-Replayed: true`) and creates nothing;
 * with anything else it is 422 `idempotency_key_reused`; while the first is still running, 409
 * `idempotency_request_in_progress`. Only a success is kept: a refused or failed request changed nothing and
 * lets its key go, so the retry runs afresh.
 */

/** The creates that take an Idempotency-Key, as `METHOD /path` of the route table (the OpenAPI document says so too). */
export const IDEMPOTENT_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/documents',
  'POST /api/folders',
  'POST /api/documents/:id/threads',
  'POST /api/me/api-tokens',
  'POST /api/webhooks',
]);

/** Headers of the first answer that a replay repeats. */
const REPLAYED_HEADERS = ['content-type', 'etag', 'location', 'cache-control'] as const;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;
/** Printable ASCII, as HTTP header values are in practice. */
const KEY_PATTERN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

interface Claim extends KeyOwner {
  settled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: Claim;
  }
}

function routeKey(request: FastifyRequest): string {
  const url = request.routeOptions.url ?? '';
  return `${request.method} ${url.length > 1 ? url.replace(/\/$/, '') : url}`;
}

function keyOf(header: string | string[]): string {
  if (Array.isArray(header)) throw badRequest('Send one Idempotency-Key', 'invalid_idempotency_key');
  if (header.length > IDEMPOTENCY_KEY_MAX_LENGTH)
    throw badRequest(
      `An Idempotency-Key has at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`,
      'invalid_idempotency_key',
    );
  if (!KEY_PATTERN.test(header))
    throw badRequest('An Idempotency-Key is printable ASCII, not blank', 'invalid_idempotency_key');
  return header;
}

const bodyHashOf = (body: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');

/** The answer's body as text, uncompressed; undefined when it cannot be kept (a stream). */
function storableBody(payload: unknown, encoding: unknown): string | undefined {
  if (payload === null || payload === undefined) return '';
  if (typeof payload === 'string') return payload;
  if (!Buffer.isBuffer(payload)) return undefined;
  if (encoding === 'br') return brotliDecompressSync(payload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(payload).toString('utf8');
  return payload.toString('utf8');
}

function replayedHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (typeof value === 'string') headers[name] = value;
    else if (typeof value === 'number') headers[name] = String(value);
  }
  return headers;
}

/** Registered on the root instance before the routes, so its hooks run for the routes of every prefix. */
export function registerIdempotency(app: FastifyInstance): void {
  const { db } = app.deps;
  const log = app.log.child({ module: 'idempotency' });

  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !IDEMPOTENT_ROUTES.has(routeKey(request))) return;
    const key = keyOf(header);
    const { userId } = await requireUser(request);
    const now = new Date();
    const path = request.url.split('?')[0] ?? request.url;
    const bodyHash = bodyHashOf(request.body);
    const held = await claimKey(
      db,
      {
        userId,
        key,
        method: request.method,
        path,
        bodyHash,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
      },
      now,
    );
    if (held === true) {
      request.idempotencyClaim = { userId, key, settled: false };
      return;
    }
    if (held.method !== request.method || held.path !== path || held.bodyHash !== bodyHash)
      throw new AppError(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was used for another request; use a new key for a new request',
      );
    if (held.status === null)
      throw new AppError(
        409,
        'idempotency_request_in_progress',
        'A request with this Idempotency-Key is still being handled; retry when it has answered',
      );
    reply
      .status(held.status)
      .headers(held.responseHeaders ?? {})
      .header('idempotent-replayed', 'true');
    return reply.send(held.responseBody ?? '');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim || claim.settled) return payload;
    claim.settled = true;
    const status = reply.statusCode;
    try {
      const body =
        status >= 200 && status < 300
          ? storableBody(payload, reply.getHeader('content-encoding'))
          : undefined;
      if (body === undefined) await releaseKey(db, claim);
      else await completeKey(db, claim, { status, headers: replayedHeaders(reply), body });
    } catch (error) {
      log.warn({ err: error }, 'could not keep the answer of an idempotent request');
      await releaseKey(db, claim).catch(() => {});
    }
    return payload;
  });

  // A request that ended without an answer (the client went away, an error before sending) lets its key go.
  app.addHook('onResponse', async (request) => {
    const claim = request.idempotencyClaim;
    if (!claim || claim.settled) return;
    claim.settled = true;
    await releaseKey(db, claim).catch((error: unknown) =>
      log.warn({ err: error }, 'could not let an idempotency key go'),
    );
  });

  let running: Promise<unknown> = Promise.resolve();
  const purge = () => {
    running = purgeExpiredKeys(db, new Date()).catch((error: unknown) =>
      log.warn({ err: error }, 'idempotency key purge failed'),
    );
  };
  purge();
  const timer = setInterval(purge, PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
