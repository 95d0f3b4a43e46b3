import { expect, it } from 'vitest';
import { wordDiff } from './word-diff';

it('marks changed words and keeps the rest', () => {
  expect(wordDiff('the quick brown fox', 'the slow brown fox jumps')).toEqual([
    { type: 'same', text: 'the ' },
    { type: 'removed', text: 'quick' },
    { type: 'added', text: 'slow' },
    { type: 'same', text: ' brown fox' },
    { type: 'added', text: ' jumps' },
  ]);
});

it('joining same+added parts gives the new text, same+removed the old one', () => {
  const before = 'Our team have finished the report and we think its good.';
  const after = 'Our team has finished the report, and we think it is good.';
  const parts = wordDiff(before, after);
  expect(
    parts
      .filter((p) => p.type !== 'removed')
      .map((p) => p.text)
      .join(''),
  ).toBe(after);
  expect(
    parts
      .filter((p) => p.type !== 'added')
      .map((p) => p.text)
      .join(''),
  ).toBe(before);
});

it('identical texts are one unchanged part; empty sides are pure additions or removals', () => {
  expect(wordDiff('same text', 'same text')).toEqual([{ type: 'same', text: 'same text' }]);
  expect(wordDiff('', 'new')).toEqual([{ type: 'added', text: 'new' }]);
  expect(wordDiff('old', '')).toEqual([{ type: 'removed', text: 'old' }]);
});

it('a completely different text reads as one removal and one addition', () => {
  expect(wordDiff('Please send the report now.', 'First alternative here.')).toEqual([
    { type: 'removed', text: 'Please send the report now.' },
    { type: 'added', text: 'First alternative here.' },
  ]);
});
