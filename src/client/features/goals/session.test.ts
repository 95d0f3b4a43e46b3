import { describe, expect, it } from 'vitest';
import { sessionSummary } from './session';

describe('the writing-session summary', () => {
  it('gives words, time and pace', () => {
    expect(sessionSummary({ words: 420, durationMs: 25 * 60_000 })).toBe(
      '+420 words in 25 min · 17 words a minute',
    );
    expect(sessionSummary({ words: 1200, durationMs: 90 * 60_000 })).toBe(
      '+1,200 words in 1 h 30 min · 13 words a minute',
    );
  });
  it('shows cuts as negative words without a negative pace', () => {
    expect(sessionSummary({ words: -30, durationMs: 5 * 60_000 })).toBe(
      '-30 words in 5 min · 0 words a minute',
    );
  });
  it('stays quiet for a visit without words of the writer’s own', () => {
    expect(sessionSummary({ words: 0, durationMs: 20_000 })).toBeNull();
    expect(sessionSummary({ words: 0, durationMs: 10 * 60_000 })).toBeNull();
  });
});
