import { Editor } from '@tiptap/core';
import { afterEach, expect, it, vi } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import type { GrammarChange } from '@shared/schemas/ai';
import { liveGrammarKey, liveGrammarPlugin } from './live-grammar';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

/** A stand-in checker: flags every " an " before a consonant, like Harper's article rule. */
function fakeCheck(text: string): Promise<GrammarChange[]> {
  const changes: GrammarChange[] = [];
  for (const match of text.matchAll(/\ban(?= [bcdfgt])/g)) {
    changes.push({
      offset: match.index,
      length: 2,
      original: 'an',
      replacement: 'a',
      message: 'Article',
      kind: 'x',
    });
  }
  return Promise.resolve(changes);
}

function underlined(e: Editor): string[] {
  const set = liveGrammarKey.getState(e.state)!;
  return set.find().map((d) => e.state.doc.textBetween(d.from, d.to));
}

it('underlines issues per paragraph after a pause and drops them while the paragraph is edited', async () => {
  const check = vi.fn(fakeCheck);
  editor = new Editor({
    extensions: createEditorExtensions({ history: true }),
    content: '<p>This is an test.</p><p>All good here.</p>',
  });
  editor.registerPlugin(liveGrammarPlugin({ check, delayMs: 20, onIssueClick: () => {} }));
  await vi.waitFor(() => expect(underlined(editor!)).toEqual(['an']));
  expect(check).toHaveBeenCalledWith('This is an test.');
  expect(check).toHaveBeenCalledWith('All good here.');

  // Typing in the first paragraph removes its (now stale) underline until the next check.
  editor.commands.insertContentAt(editor.state.doc.child(0).nodeSize - 1, ' Also an cat');
  expect(underlined(editor)).toEqual([]);
  await vi.waitFor(() => expect(underlined(editor!)).toEqual(['an', 'an']));
  // Only the edited paragraph was checked again.
  expect(check.mock.calls.filter(([text]) => text === 'All good here.')).toHaveLength(1);
});
