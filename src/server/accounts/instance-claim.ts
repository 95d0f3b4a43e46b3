import { and, eq, isNull, sql } from 'drizzle-orm';
import { randomInt } from 'node:crypto';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { setupCodes, users } from '../db/schema';
import { forbidden } from '../errors';
import { hashToken } from '../plugins';

/**
 * Who becomes the first admin of an instance. Sign-up alone only ever makes members: on a public install the
 * first visitor must not own the instance. The first admin is whoever enters the one-time setup code printed
 * in the server log while the instance has no admin, or the account whose confirmed e-mail is ADMIN_EMAIL.
 */

/** Letters and digits that cannot be misread for one another (no 0/O, 1/I/L). */
const SETUP_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** 3 groups of 5 from 31 symbols: about 74 bits, far beyond guessing at the route's rate limit. */
const SETUP_CODE_GROUPS = 3;
const SETUP_CODE_GROUP_LENGTH = 5;
/** Makes concurrent claims (and the ADMIN_EMAIL promotion) take turns. */
const CLAIM_LOCK_KEY = 7_413_522;

const invalidSetupCode = () =>
  forbidden('This setup code is not valid or has already been used.', 'invalid_setup_code');

function newSetupCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < SETUP_CODE_GROUPS; g++) {
    let group = '';
    for (let i = 0; i < SETUP_CODE_GROUP_LENGTH; i++)
      group += SETUP_CODE_ALPHABET[randomInt(SETUP_CODE_ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** Spaces, dashes and case do not matter when the code is typed in. */
function hashSetupCode(code: string): string {
  return hashToken(code.toUpperCase().replace(/[^A-Z0-9]/g, ''));
}

export async function instanceHasAdmin(db: Db): Promise<boolean> {
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  return Boolean(admin);
}

/** Makes the ADMIN_EMAIL account an admin once its address is confirmed (so nobody can take the name first). */
export async function promoteAdminEmail(
  db: Db,
  config: Pick<Config, 'ADMIN_EMAIL'>,
  user: { id: string; email: string; emailConfirmedAt: Date | null; role: string },
): Promise<boolean> {
  if (!config.ADMIN_EMAIL || user.email !== config.ADMIN_EMAIL) return false;
  if (!user.emailConfirmedAt || user.role === 'admin') return false;
  await db.update(users).set({ role: 'admin', updatedAt: new Date() }).where(eq(users.id, user.id));
  return true;
}

export type InstanceClaim = { hasAdmin: true } | { hasAdmin: false; setupCode: string };

/**
 * At start: promotes the ADMIN_EMAIL account if it exists, and when the instance still has no admin, makes a
 * new setup code (its hash stored, so any instance of a cluster accepts it) for the caller to print.
 */
export async function prepareInstanceClaim(
  db: Db,
  config: Pick<Config, 'ADMIN_EMAIL'>,
): Promise<InstanceClaim> {
  if (config.ADMIN_EMAIL) {
    const [user] = await db.select().from(users).where(eq(users.email, config.ADMIN_EMAIL)).limit(1);
    if (user) await promoteAdminEmail(db, config, user);
  }
  if (await instanceHasAdmin(db)) return { hasAdmin: true };
  const setupCode = newSetupCode();
  await db.insert(setupCodes).values({ codeHash: hashSetupCode(setupCode) });
  return { hasAdmin: false, setupCode };
}

/**
 * Makes the user the instance's admin if `code` is an unused setup code and there is no admin yet. Every
 * other code is voided with it, so a code works once and only while the instance is unclaimed; a wrong, used
 * or late code answers 403 invalid_setup_code alike.
 */
export async function redeemSetupCode(db: Db, userId: string, code: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`);
    const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
    if (admin) throw invalidSetupCode();
    const now = new Date();
    const [used] = await tx
      .update(setupCodes)
      .set({ usedAt: now })
      .where(and(eq(setupCodes.codeHash, hashSetupCode(code)), isNull(setupCodes.usedAt)))
      .returning({ id: setupCodes.id });
    if (!used) throw invalidSetupCode();
    await tx.update(setupCodes).set({ usedAt: now }).where(isNull(setupCodes.usedAt));
    await tx.update(users).set({ role: 'admin', updatedAt: now }).where(eq(users.id, userId));
  });
}
