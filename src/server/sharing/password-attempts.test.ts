import { describe, expect, it } from 'vitest';
import {
  SHARE_PASSWORD_FIRST_WAIT_MS,
  SHARE_PASSWORD_FORGET_AFTER_MS,
  SHARE_PASSWORD_FREE_ATTEMPTS,
  SHARE_PASSWORD_MAX_WAIT_MS,
  SharePasswordAttempts,
} from './password-attempts';

const DOC = '6f1c1b1e-0000-4000-8000-000000000001';
const OTHER_DOC = '6f1c1b1e-0000-4000-8000-000000000002';

function clock() {
  let now = 1_700_000_000_000;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('share password attempts', () => {
  it('gives a few free tries, then waits that double with every further wrong password, up to a cap', () => {
    const time = clock();
    const attempts = new SharePasswordAttempts(time.now);
    for (let i = 0; i < SHARE_PASSWORD_FREE_ATTEMPTS - 1; i++) {
      attempts.recordFailure(DOC, '203.0.113.9');
      expect(attempts.waitSeconds(DOC, '203.0.113.9')).toBe(0);
    }
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      attempts.recordFailure(DOC, '203.0.113.9');
      const wait = attempts.waitSeconds(DOC, '203.0.113.9');
      waits.push(wait);
      time.advance(wait * 1000);
      expect(attempts.waitSeconds(DOC, '203.0.113.9')).toBe(0);
    }
    const first = SHARE_PASSWORD_FIRST_WAIT_MS / 1000;
    expect(waits).toEqual([first, first * 2, first * 4, first * 8, first * 16, first * 32, 3600, 3600]);
    expect(SHARE_PASSWORD_MAX_WAIT_MS / 1000).toBe(3600);
  });

  it('counts per document and address; the right password and time clear the count', () => {
    const time = clock();
    const attempts = new SharePasswordAttempts(time.now);
    for (let i = 0; i < SHARE_PASSWORD_FREE_ATTEMPTS; i++) attempts.recordFailure(DOC, '203.0.113.9');
    expect(attempts.waitSeconds(DOC, '203.0.113.9')).toBeGreaterThan(0);
    expect(attempts.waitSeconds(DOC, '198.51.100.1')).toBe(0);
    expect(attempts.waitSeconds(OTHER_DOC, '203.0.113.9')).toBe(0);

    attempts.recordSuccess(DOC, '203.0.113.9');
    expect(attempts.waitSeconds(DOC, '203.0.113.9')).toBe(0);

    for (let i = 0; i < SHARE_PASSWORD_FREE_ATTEMPTS + 3; i++) attempts.recordFailure(DOC, '203.0.113.9');
    time.advance(SHARE_PASSWORD_FORGET_AFTER_MS + 1);
    attempts.recordFailure(DOC, '203.0.113.9');
    // Forgotten: this is the first wrong password again.
    expect(attempts.waitSeconds(DOC, '203.0.113.9')).toBe(0);
  });
});
