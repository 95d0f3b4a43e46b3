/**
 * Wrong share passwords, counted per document AND client address: a stranger guessing a document's
 * password makes only their own address wait, while a visitor elsewhere who knows the password still gets in.
 * Each address gets a few free tries, then waits that grow with every further wrong password (doubling up to
 * a cap), so guessing stays slow however long it goes on. The right password clears the count.
 *
 * Counters live in this process's memory (like the auth routes' limits): behind several instances each
 * counts on its own, which multiplies the free tries but not the growth of the waits.
 */

/** Wrong passwords one address may try on one document before it has to wait. */
export const SHARE_PASSWORD_FREE_ATTEMPTS = 5;
/** The first wait; each further wrong password doubles it. */
export const SHARE_PASSWORD_FIRST_WAIT_MS = 60_000;
/** The longest wait. */
export const SHARE_PASSWORD_MAX_WAIT_MS = 60 * 60_000;
/** A count is forgotten this long after its last wrong password. */
export const SHARE_PASSWORD_FORGET_AFTER_MS = 24 * 60 * 60_000;
/** Counters kept at most (the oldest go first), so a flood of addresses cannot grow memory without bound. */
const SHARE_PASSWORD_MAX_TRACKED = 50_000;

interface Failures {
  count: number;
  /** Epoch ms before which this address may not try again. */
  blockedUntil: number;
  lastFailureAt: number;
}

export class SharePasswordAttempts {
  private readonly failures = new Map<string, Failures>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds this address must still wait before trying a password on this document (0: it may try now). */
  waitSeconds(documentId: string, address: string): number {
    const entry = this.current(keyOf(documentId, address));
    if (!entry) return 0;
    return Math.max(0, Math.ceil((entry.blockedUntil - this.now()) / 1000));
  }

  recordFailure(documentId: string, address: string): void {
    const key = keyOf(documentId, address);
    const now = this.now();
    const count = (this.current(key)?.count ?? 0) + 1;
    const over = count - SHARE_PASSWORD_FREE_ATTEMPTS;
    const wait =
      over < 0 ? 0 : Math.min(SHARE_PASSWORD_FIRST_WAIT_MS * 2 ** over, SHARE_PASSWORD_MAX_WAIT_MS);
    // Re-inserted so the Map's order is the order of last failures (the oldest is evicted first).
    this.failures.delete(key);
    this.failures.set(key, { count, blockedUntil: now + wait, lastFailureAt: now });
    if (this.failures.size > SHARE_PASSWORD_MAX_TRACKED) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }

  recordSuccess(documentId: string, address: string): void {
    this.failures.delete(keyOf(documentId, address));
  }

  private current(key: string): Failures | undefined {
    const entry = this.failures.get(key);
    if (entry && this.now() - entry.lastFailureAt > SHARE_PASSWORD_FORGET_AFTER_MS) {
      this.failures.delete(key);
      return undefined;
    }
    return entry;
  }
}

const keyOf = (documentId: string, address: string) => `${documentId}|${address}`;
