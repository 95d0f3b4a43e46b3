import { expect, it, vi } from 'vitest';
import type { GrammarChange } from '@shared/schemas/ai';
import { createSentenceMemo } from './live-grammar-sentences';

/** Flags each "teh" (with its offset in the text it is given), as a linter would. */
function fakeLint(text: string): Promise<GrammarChange[]> {
  return Promise.resolve(
    [...text.matchAll(/\bteh\b/g)].map((match) => ({
      offset: match.index,
      length: 3,
      original: 'teh',
      replacement: 'the',
      message: 'Did you mean “the”?',
      kind: 'Spelling',
    })),
  );
}

const offsetsIn = (text: string, changes: GrammarChange[]) =>
  changes.map((c) => [c.offset, text.slice(c.offset, c.offset + c.length)]);

it('lints a new paragraph in one call and, after an edit, only the edited sentence', async () => {
  const lint = vi.fn(fakeLint);
  const check = createSentenceMemo(lint);
  const first = 'Teh start is fine. I saw teh cat. Nothing here. And teh end.';
  const changes = await check(first);
  expect(lint).toHaveBeenCalledTimes(1);
  expect(lint).toHaveBeenLastCalledWith(first);
  expect(offsetsIn(first, changes)).toEqual([
    [first.indexOf('teh'), 'teh'],
    [first.lastIndexOf('teh'), 'teh'],
  ]);

  const edited = 'Teh start is fine. I saw teh big cat. Nothing here. And teh end.';
  const again = await check(edited);
  expect(lint).toHaveBeenCalledTimes(2);
  expect(lint).toHaveBeenLastCalledWith('I saw teh big cat. ');
  // The remembered sentences' issues are placed at their new offsets.
  expect(offsetsIn(edited, again)).toEqual([
    [edited.indexOf('teh'), 'teh'],
    [edited.lastIndexOf('teh'), 'teh'],
  ]);
  // The same sentences in another paragraph need no lint at all.
  const moved = 'Nothing here. I saw teh big cat. ';
  expect(offsetsIn(moved, await check(moved))).toEqual([[moved.indexOf('teh'), 'teh']]);
  expect(lint).toHaveBeenCalledTimes(2);
});

it('forgets the least recently used sentences beyond its size', async () => {
  const lint = vi.fn(fakeLint);
  const check = createSentenceMemo(lint, { maxSentences: 2 });
  await check('One teh. Two. ');
  await check('Three. '); // "One teh. " is now the oldest and is forgotten.
  await check('Two. ');
  expect(lint).toHaveBeenCalledTimes(2);
  await check('One teh. ');
  expect(lint).toHaveBeenCalledTimes(3);
});
