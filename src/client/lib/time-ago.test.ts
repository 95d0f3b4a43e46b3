import { formatDistanceToNow } from 'date-fns';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timeAgo } from './time-ago';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

/** Offsets around every boundary of the wording, in both directions. */
function offsets(): number[] {
  const list: number[] = [0];
  for (let s = 1; s <= 200; s += 7) list.push(s * SECOND);
  for (let m = 1; m <= 60 * 30; m += 13)
    list.push(m * MINUTE, m * MINUTE + 29 * SECOND, m * MINUTE + 31 * SECOND);
  for (let d = 1; d <= 3 * 366; d += 5) list.push(d * DAY, d * DAY + 7 * 60 * MINUTE);
  for (let y = 1; y <= 12; y++)
    list.push(y * 365 * DAY, y * 365 * DAY + 100 * DAY, y * 365 * DAY + 300 * DAY);
  return [...list, ...list.map((offset) => -offset)];
}

describe('timeAgo', () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    '2026-11-25T16:00:00Z',
    '2026-03-31T23:59:59Z',
    '2026-02-28T12:00:00Z',
    '2024-02-29T08:30:00Z',
    '2026-10-25T01:30:00Z',
    '2026-01-01T00:00:00Z',
  ])('says what date-fns says, seen at %s', (nowIso) => {
    const now = new Date(nowIso);
    vi.useFakeTimers({ now });
    for (const offset of offsets()) {
      const at = new Date(now.getTime() - offset);
      expect(timeAgo(at, now), `${offset} ms before ${nowIso}`).toBe(
        formatDistanceToNow(at, { addSuffix: true }),
      );
    }
  });

  it('reads the clock when no moment is given', () => {
    vi.useFakeTimers({ now: new Date('2026-11-25T16:00:00Z') });
    expect(timeAgo(new Date('2026-11-25T15:55:00Z'))).toBe('5 minutes ago');
  });
});
