import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkGrammar, stopGrammar, warmUpGrammar } from './grammar';

beforeAll(() => warmUpGrammar());
afterAll(() => stopGrammar());

it('one user’s flood of checks delays another user’s check by at most one check', async () => {
  const long = 'Their are many mistakes here and and we should fix them. '.repeat(40);
  const finished: string[] = [];
  const flood = Array.from({ length: 12 }, (_, i) =>
    checkGrammar(long, 'flooder').then(() => finished.push(`flood-${i}`)),
  );
  // Asked after all twelve: served right after the check already in the worker, not after the flood.
  const other = checkGrammar('I recieved teh letter.', 'writer').then((result) => {
    finished.push('writer');
    return result;
  });
  const result = await other;
  await Promise.all(flood);
  expect(result.correctedText).toBe('I received the letter.');
  expect(finished.indexOf('writer')).toBeLessThanOrEqual(1);
  expect(finished).toHaveLength(13);
});

it('without an owner (one shared queue) checks are still answered in order', async () => {
  const results = await Promise.all(['We and and they.', 'This is an test.'].map((t) => checkGrammar(t)));
  expect(results.map((r) => r.correctedText)).toEqual(['We and they.', 'This is a test.']);
});
