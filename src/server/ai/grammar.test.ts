import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkGrammar, stopGrammar, warmUpGrammar } from './grammar';

// Building Harper's linter takes seconds on a busy machine: a hook (60 s budget) pays for it, not a test.
beforeAll(() => warmUpGrammar());
afterAll(() => stopGrammar());

it('a sentence with known errors gets known corrections with offsets', async () => {
  const text = 'I recieved teh letter. Their are many mistakes here and and we should fix them.';
  const result = await checkGrammar(text);
  expect(result.correctedText).toBe(
    'I received the letter. There are many mistakes here and we should fix them.',
  );
  expect(
    result.changes.map(({ offset, length, original, replacement }) => ({
      offset,
      length,
      original,
      replacement,
    })),
  ).toEqual([
    { offset: 2, length: 8, original: 'recieved', replacement: 'received' },
    { offset: 11, length: 3, original: 'teh', replacement: 'the' },
    { offset: 23, length: 5, original: 'Their', replacement: 'There' },
    { offset: 52, length: 7, original: 'and and', replacement: 'and' },
  ]);
  for (const change of result.changes) {
    expect(text.slice(change.offset, change.offset + change.length)).toBe(change.original);
    expect(change.message.length).toBeGreaterThan(0);
  }
  expect(result.corrections).toBe(result.changes);
  expect(result.result).toEqual({ correctedText: result.correctedText, corrections: result.changes });
});

it('offsets are string indices even after characters outside the BMP', async () => {
  const result = await checkGrammar('The 😀 emoji is an nice thing.');
  expect(result.correctedText).toBe('The 😀 emoji is a nice thing.');
  expect(result.changes[0]).toMatchObject({ offset: 16, length: 2, original: 'an', replacement: 'a' });
});

it('correct text has no changes', async () => {
  const result = await checkGrammar('The weather is lovely today.');
  expect(result.changes).toEqual([]);
  expect(result.correctedText).toBe('The weather is lovely today.');
});
