import { describe, expect, it } from 'vitest';
import {
  addDays,
  contentWordCount,
  dailyTarget,
  dayHistory,
  daysInclusive,
  localDay,
  streakDays,
  wordsPerDay,
} from './index';

describe('daily target', () => {
  it('spreads the words left over the days left, today included, rounded up', () => {
    expect(dailyTarget(1000, 0, '2026-03-01', '2026-03-10')).toBe(100);
    expect(dailyTarget(1000, 1, '2026-03-01', '2026-03-10')).toBe(100);
    expect(dailyTarget(1000, 0, '2026-03-10', '2026-03-10')).toBe(1000);
    expect(dailyTarget(1001, 0, '2026-03-01', '2026-03-10')).toBe(101);
  });
  it('is never negative, and null without a deadline or after it', () => {
    expect(dailyTarget(1000, 1500, '2026-03-01', '2026-03-10')).toBe(0);
    expect(dailyTarget(1000, 0, '2026-03-01', null)).toBeNull();
    expect(dailyTarget(1000, 0, '2026-03-11', '2026-03-10')).toBeNull();
  });
  it('counts days across month and year ends', () => {
    expect(daysInclusive('2026-12-31', '2027-01-01')).toBe(2);
    expect(daysInclusive('2028-02-28', '2028-03-01')).toBe(3);
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('local days', () => {
  it('puts an instant on the date of the writer’s zone', () => {
    const instant = new Date('2026-03-02T23:30:00Z');
    expect(localDay(instant, 'UTC')).toBe('2026-03-02');
    expect(localDay(instant, 'Europe/Paris')).toBe('2026-03-03');
    expect(localDay(instant, 'America/New_York')).toBe('2026-03-02');
    expect(localDay(new Date('2026-03-02T04:59:59Z'), 'America/New_York')).toBe('2026-03-01');
    expect(localDay(new Date('2026-03-02T05:00:00Z'), 'America/New_York')).toBe('2026-03-02');
    // Quarter-hour zones: Nepal is UTC+5:45.
    expect(localDay(new Date('2026-03-02T18:14:00Z'), 'Asia/Kathmandu')).toBe('2026-03-02');
    expect(localDay(new Date('2026-03-02T18:15:00Z'), 'Asia/Kathmandu')).toBe('2026-03-03');
  });

  it('adds quarter-hour buckets into the days of the zone asked for, split at its midnight', () => {
    const buckets = [
      { start: new Date('2026-03-02T22:45:00Z'), words: 100 },
      { start: new Date('2026-03-02T23:00:00Z'), words: 50 },
      { start: new Date('2026-03-03T01:00:00Z'), words: -20 },
    ];
    expect(Object.fromEntries(wordsPerDay(buckets, 'UTC'))).toEqual({ '2026-03-02': 150, '2026-03-03': -20 });
    // Paris is UTC+1 in March: its midnight is 23:00 UTC.
    expect(Object.fromEntries(wordsPerDay(buckets, 'Europe/Paris'))).toEqual({
      '2026-03-02': 100,
      '2026-03-03': 30,
    });
  });
});

describe('streak', () => {
  const days = (entries: Record<string, number>) => new Map(Object.entries(entries));

  it('counts consecutive days with enough words, ending today', () => {
    const perDay = days({ '2026-03-01': 150, '2026-03-02': 100, '2026-03-03': 300 });
    expect(streakDays(perDay, '2026-03-03', 100)).toBe(3);
  });
  it('is kept while today is not reached yet, and broken by a day short', () => {
    const perDay = days({ '2026-02-28': 500, '2026-03-01': 99, '2026-03-02': 200, '2026-03-03': 20 });
    expect(streakDays(perDay, '2026-03-03', 100)).toBe(1);
    expect(streakDays(perDay, '2026-03-04', 100)).toBe(0);
  });
  it('depends on the zone at midnight: words just after UTC midnight are the day before in New York', () => {
    const buckets = [
      { start: new Date('2026-03-02T12:00:00Z'), words: 100 },
      { start: new Date('2026-03-03T02:00:00Z'), words: 100 },
    ];
    const now = new Date('2026-03-03T03:00:00Z');
    const utc = wordsPerDay(buckets, 'UTC');
    expect(streakDays(utc, localDay(now, 'UTC'), 100)).toBe(2);
    const newYork = wordsPerDay(buckets, 'America/New_York');
    // Both fall on 2 March there (200 words), and 3 March has not started.
    expect(Object.fromEntries(newYork)).toEqual({ '2026-03-02': 200 });
    expect(streakDays(newYork, localDay(now, 'America/New_York'), 100)).toBe(1);
  });
  it('stops at the lookback', () => {
    const perDay = new Map(Array.from({ length: 10 }, (_, i) => [addDays('2026-03-10', -i), 500] as const));
    expect(streakDays(perDay, '2026-03-10', 100, 5)).toBe(5);
  });
});

describe('history and words', () => {
  it('lists the last days oldest first, with 0 for a day without words', () => {
    const history = dayHistory(new Map([['2026-03-02', 40]]), '2026-03-03', 3);
    expect(history).toEqual([
      { day: '2026-03-01', words: 0 },
      { day: '2026-03-02', words: 40 },
      { day: '2026-03-03', words: 0 },
    ]);
  });
  it('counts the words of a rich-text tree without joining words across blocks or breaks', () => {
    const doc = {
      type: 'doc',
      content: [
        { type: 'heading', content: [{ type: 'text', text: 'Chapter one' }] },
        {
          type: 'paragraph',
          content: [{ type: 'text', text: 'It was' }, { type: 'hardBreak' }, { type: 'text', text: 'dark' }],
        },
        { type: 'paragraph' },
        {
          type: 'bulletList',
          content: [
            { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'item' }] }] },
          ],
        },
      ],
    };
    expect(contentWordCount(doc)).toBe(6);
    expect(contentWordCount(null)).toBe(0);
  });
});
