import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tooManyRequests } from '../errors';

/**
 * Per-user request rates of the costly routes, counted by @fastify/rate-limit (in Redis when REDIS_URL is
 * set, so the limit holds across instances). Keyed on the signed-in user, not the IP: writers behind one
 * office NAT don't share a budget, and one account can't multiply its budget with many addresses.
 */
const MINUTE_MS = 60_000;

export interface UserLimit {
  /** Counter namespace. */
  bucket: string;
  max: number;
  windowMs: number;
}

/** Calls that reach an AI provider (improve, complete, rewrite, tone, outline, summarize, lists). */
export const AI_GENERATION_PER_USER: UserLimit = { bucket: 'ai-generate', max: 30, windowMs: MINUTE_MS };
/** Grammar checks and text analysis (local CPU, checked as the writer types). */
export const AI_CHECK_PER_USER: UserLimit = { bucket: 'ai-check', max: 120, windowMs: MINUTE_MS };
/** Document exports (PDF rendering and DOCX building are CPU-heavy). */
export const EXPORT_PER_USER: UserLimit = { bucket: 'export', max: 30, windowMs: MINUTE_MS };

export type UserRateCheck = (request: FastifyRequest, reply: FastifyReply, userId: string) => Promise<void>;

/** A check to call once the user is known: over the limit → 429 over_request_rate_limit with Retry-After. */
export function perUserLimit(app: FastifyInstance, limit: UserLimit): UserRateCheck {
  const userOf = new WeakMap<FastifyRequest, string>();
  const check = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (request: FastifyRequest) => `${limit.bucket}:${userOf.get(request) ?? request.ip}`,
  });
  return async (request, reply, userId) => {
    userOf.set(request, userId);
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', String(result.ttlInSeconds));
      throw tooManyRequests(`Too many requests, please try again in ${result.ttlInSeconds} seconds.`);
    }
  };
}
