import { normalizeIP } from '@fastify/rate-limit';
import { and, count, eq, gt, lt, min } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/client';
import { signInFailures } from '../db/schema';
import { AppError } from '../errors';

/**
 * Password guessing is stopped per (e-mail, client IP), never per e-mail alone: a lockout per e-mail lets anyone
 * lock the owner out by sending wrong passwords, while per (e-mail, IP) the attacker only locks out themself.
 * Guessing from many addresses at once is slowed instead: past a number of failures for one e-mail, every
 * attempt at it waits a growing delay before its password is checked. The right password is never refused
 * because of what other addresses sent; it may only be answered later. Failures are rows in the database, so
 * every instance counts the same. Numbers: docs/accounts.md ("Rate limits").
 */
const SIGN_IN_FAILURE_WINDOW_MS = 15 * 60_000;
/** Failed sign-ins one (e-mail, IP) may make within the window; the next attempts from it answer 429. */
export const MAX_FAILURES_PER_EMAIL_AND_IP = 10;
/** Failures at one e-mail (from all addresses together) after which every attempt at it is delayed. */
export const DELAY_AFTER_FAILURES_PER_EMAIL = 20;
/** The first delay; it doubles with each further failure up to SIGN_IN_MAX_DELAY_MS. */
export const SIGN_IN_FIRST_DELAY_MS = 500;
const SIGN_IN_MAX_DELAY_MS = 8_000;
/** Old failures are deleted at most this often per process. */
const CLEANUP_INTERVAL_MS = 60_000;

const lastCleanup = new WeakMap<Db, number>();

function ipOf(ip: string): string {
  return normalizeIP(ip);
}

function windowStart(): Date {
  return new Date(Date.now() - SIGN_IN_FAILURE_WINDOW_MS);
}

/** Delay before checking a password for an e-mail that has `failures` recent failures from all addresses. */
function delayForFailures(failures: number): number {
  if (failures < DELAY_AFTER_FAILURES_PER_EMAIL) return 0;
  const doublings = Math.min(failures - DELAY_AFTER_FAILURES_PER_EMAIL, 10);
  return Math.min(SIGN_IN_FIRST_DELAY_MS * 2 ** doublings, SIGN_IN_MAX_DELAY_MS);
}

/** 429 over_request_rate_limit for one (e-mail, IP); the route sends `retryAfterSeconds` as Retry-After. */
export class SignInLockedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      'over_request_rate_limit',
      `Too many failed sign-ins for this account from your network. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes, or reset your password.`,
    );
  }
}

/**
 * Before a password is checked: 429 when this (e-mail, IP) has used up its failures, otherwise waits the delay
 * the e-mail's failures from all addresses call for.
 */
export async function beforePasswordCheck(db: Db, email: string, ip: string): Promise<void> {
  const since = windowStart();
  const [fromHere] = await db
    .select({ n: count(), oldest: min(signInFailures.failedAt) })
    .from(signInFailures)
    .where(
      and(
        eq(signInFailures.email, email),
        eq(signInFailures.ip, ipOf(ip)),
        gt(signInFailures.failedAt, since),
      ),
    );
  if (fromHere && fromHere.n >= MAX_FAILURES_PER_EMAIL_AND_IP) {
    // Free again when the oldest failure of the window ages out.
    const oldest = fromHere.oldest ? new Date(fromHere.oldest).getTime() : Date.now();
    const retryAfterMs = oldest + SIGN_IN_FAILURE_WINDOW_MS - Date.now();
    throw new SignInLockedError(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }
  const [fromAll] = await db
    .select({ n: count() })
    .from(signInFailures)
    .where(and(eq(signInFailures.email, email), gt(signInFailures.failedAt, since)));
  const delay = delayForFailures(fromAll?.n ?? 0);
  if (delay > 0) await sleep(delay);
}

/** A wrong password (or an unknown e-mail, which must look the same) for this e-mail from this IP. */
export async function recordFailedSignIn(db: Db, email: string, ip: string): Promise<void> {
  await db.insert(signInFailures).values({ email, ip: ipOf(ip) });
  const now = Date.now();
  if ((lastCleanup.get(db) ?? 0) + CLEANUP_INTERVAL_MS < now) {
    lastCleanup.set(db, now);
    await db.delete(signInFailures).where(lt(signInFailures.failedAt, windowStart()));
  }
}

/** The right password from this IP: its earlier failures no longer count against it. */
export async function recordSuccessfulSignIn(db: Db, email: string, ip: string): Promise<void> {
  await db
    .delete(signInFailures)
    .where(and(eq(signInFailures.email, email), eq(signInFailures.ip, ipOf(ip))));
}
