import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tooManyRequests } from '../errors';

/**
 * Rate limits of the auth routes. Per IP they bound what one client can try; per e-mail they bound
 * mail-bombing one inbox. Password guessing is handled by sign-in-throttle.ts (per e-mail and IP). Counters
 * live in this process's memory, or in Redis with REDIS_URL (app.ts); see docs/accounts.md.
 */
const MINUTE_MS = 60_000;

export interface Limit {
  max: number;
  windowMs: number;
}

export const SIGNUP_PER_IP: Limit = { max: 10, windowMs: MINUTE_MS };
const PASSWORD_SIGN_IN_PER_IP: Limit = { max: 30, windowMs: MINUTE_MS };
/** Refreshes are routine (every open app refreshes hourly), so they get their own, larger budget. */
const REFRESH_PER_IP: Limit = { max: 60, windowMs: MINUTE_MS };
/** recover and resend. */
export const MAIL_REQUEST_PER_IP: Limit = { max: 10, windowMs: MINUTE_MS };
export const MAIL_REQUEST_PER_EMAIL: Limit = { max: 5, windowMs: 60 * MINUTE_MS };
export const VERIFY_PER_IP: Limit = { max: 30, windowMs: MINUTE_MS };
/** PUT /user can send a confirmation mail to any address. */
export const USER_UPDATE_PER_IP: Limit = { max: 30, windowMs: MINUTE_MS };
/** POST /setup: guessing a setup code (about 74 bits) at this rate is hopeless. */
export const SETUP_CODE_PER_IP: Limit = { max: 10, windowMs: MINUTE_MS };

/** Route option for a per-IP limit (checked on request, before the body is read). */
export function perIp(limit: Limit) {
  return { rateLimit: { max: limit.max, timeWindow: limit.windowMs } };
}

function grantOf(request: FastifyRequest): string {
  const grant = (request.query as { grant_type?: unknown } | undefined)?.grant_type;
  return grant === 'refresh_token' ? 'refresh_token' : 'password';
}

/** Route option for POST /token: per IP, counted separately for password sign-ins and refreshes. */
export function perIpByGrant() {
  if (PASSWORD_SIGN_IN_PER_IP.windowMs !== REFRESH_PER_IP.windowMs) throw new Error('one window for both');
  return {
    rateLimit: {
      timeWindow: PASSWORD_SIGN_IN_PER_IP.windowMs,
      max: (request: FastifyRequest) =>
        grantOf(request) === 'refresh_token' ? REFRESH_PER_IP.max : PASSWORD_SIGN_IN_PER_IP.max,
      keyGenerator: (request: FastifyRequest) => `${normalizeIP(request.ip)}|${grantOf(request)}`,
    },
  };
}

function emailKey(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | null | undefined;
  const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
  return email ? `email:${email}` : `ip:${request.ip}`;
}

/**
 * A per-e-mail limit, checked in the handler once the body is parsed. (@fastify/rate-limit runs only one
 * route-config limiter per request, so the second one goes through createRateLimit.)
 */
export function perEmail(app: FastifyInstance, limit: Limit) {
  const check = app.createRateLimit({ max: limit.max, timeWindow: limit.windowMs, keyGenerator: emailKey });
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      reply.header('retry-after', String(result.ttlInSeconds));
      throw tooManyRequests(`Too many requests, please try again in ${result.ttlInSeconds} seconds.`);
    }
  };
}
