import { hash, parseOptions, verify } from '@node-rs/argon2';
import { readFileSync } from 'node:fs';
import { MIN_PASSWORD_LENGTH } from '../../shared/constants';
import type { WeakPasswordReason } from '../../shared/schemas/auth';

/**
 * argon2id with OWASP's first recommended profile (19 MiB, 2 passes, 1 lane): ~30–60 ms per hash on
 * this class of machine. Spelled out so a library default change can't silently weaken stored hashes.
 * Algorithm 2 = Argon2id (a const enum in @node-rs/argon2, which isolated modules can't import).
 */
const ARGON2_PARAMS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash never matches.
    return false;
  }
}

/** True when a stored hash was made with weaker (or other) parameters than today's; rehash on next sign-in. */
export function needsRehash(passwordHash: string): boolean {
  try {
    const options = parseOptions(passwordHash);
    return (
      options.algorithm !== ARGON2_PARAMS.algorithm ||
      options.memoryCost < ARGON2_PARAMS.memoryCost ||
      options.timeCost < ARGON2_PARAMS.timeCost
    );
  } catch {
    return true;
  }
}

// Signing in with an unknown e-mail still runs one verification against this hash, so the response time
// does not reveal whether an account exists.
let dummyHash: Promise<string> | undefined;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('quillwright-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
}

let commonPasswords: Set<string> | undefined;
function loadCommonPasswords(): Set<string> {
  if (!commonPasswords) {
    const text = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8');
    commonPasswords = new Set(
      text
        .split('\n')
        .map((line) => line.trim().toLowerCase())
        .filter((line) => line && !line.startsWith('#')),
    );
  }
  return commonPasswords;
}

/** Why a password is too weak (empty when acceptable). Order: length, common, email. */
export function passwordWeaknesses(password: string, email: string): WeakPasswordReason[] {
  const reasons: WeakPasswordReason[] = [];
  // Count code points, not UTF-16 units, so an emoji counts once.
  if ([...password].length < MIN_PASSWORD_LENGTH) reasons.push('length');
  const lowered = password.trim().toLowerCase();
  if (loadCommonPasswords().has(lowered)) reasons.push('common');
  const normalizedEmail = email.trim().toLowerCase();
  const localPart = normalizedEmail.split('@')[0] ?? '';
  if (lowered && (lowered === normalizedEmail || lowered === localPart)) reasons.push('email');
  return reasons;
}
