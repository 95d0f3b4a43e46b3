import { describe, expect, it } from 'vitest';
import { computeStats, countCharacters, countWords, readingTimeMinutes } from './stats';

describe('document statistics', () => {
  it('splits words on any whitespace and ignores leading, trailing and repeated spaces', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('   \n\t ')).toBe(0);
    expect(countWords('one')).toBe(1);
    expect(countWords('  one   two\tthree\nfour  ')).toBe(4);
    expect(countWords('hyphen-ated words, with punctuation.')).toBe(4);
  });

  it('rounds reading time up at 200 words per minute: an empty document none, any text at least a minute', () => {
    expect(readingTimeMinutes(0)).toBe(0);
    expect(readingTimeMinutes(1)).toBe(1);
    expect(readingTimeMinutes(200)).toBe(1);
    expect(readingTimeMinutes(201)).toBe(2);
    expect(readingTimeMinutes(1000)).toBe(5);
    expect(readingTimeMinutes(20_000)).toBe(100);
  });

  it('counts characters including spaces, and an astral-plane emoji as one', () => {
    expect(countCharacters('ab c')).toBe(4);
    expect(countCharacters('hi 👋')).toBe(4);
  });

  it('combines the three counts', () => {
    const text = Array.from({ length: 401 }, () => 'word').join(' ');
    expect(computeStats(text)).toEqual({ wordCount: 401, charCount: 401 * 5 - 1, readingTime: 3 });
  });
});
