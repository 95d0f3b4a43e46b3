import { Editor } from '@tiptap/core';
import { Fragment, Slice, type Node as PmNode } from '@tiptap/pm/model';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, expect, it, vi } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import type { GrammarChange } from '@shared/schemas/ai';
import { StandInPlugin } from '@client/features/editor';
import { liveGrammarPlugin } from './live-grammar';
import { LiveGrammarSlot, liveGrammarKey, liveGrammarSlotOf } from './live-grammar-slot';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

/** A stand-in checker: flags every "an" before a consonant, like Harper's article rule, and "recieved". */
function fakeCheck(text: string): Promise<GrammarChange[]> {
  const changes: GrammarChange[] = [];
  for (const match of text.matchAll(/\ban(?= [bcdfgt])|\brecieved\b/g)) {
    const original = match[0];
    changes.push({
      offset: match.index,
      length: original.length,
      original,
      replacement: original === 'an' ? 'a' : 'received',
      message: 'Fix',
      kind: 'x',
    });
  }
  return Promise.resolve(changes);
}

function underlined(e: Editor): string[] {
  const set = liveGrammarKey.getState(e.state)!;
  return set.find().map((d) => e.state.doc.textBetween(d.from, d.to));
}

function setup(content: string, check: (text: string) => Promise<GrammarChange[]> = fakeCheck) {
  editor = new Editor({ extensions: createEditorExtensions({ history: true }), content });
  editor.registerPlugin(liveGrammarPlugin({ check, delayMs: 5, onIssueClick: () => {} }));
  return editor;
}

/** End of the content of the index-th top-level block. */
function endOfBlock(doc: PmNode, index: number): number {
  let pos = 0;
  for (let i = 0; i < index; i++) pos += doc.child(i).nodeSize;
  return pos + doc.child(index).nodeSize - 1;
}

it('underlines issues per paragraph and, on an edit, re-checks only the edited paragraph', async () => {
  const check = vi.fn(fakeCheck);
  const e = setup('<p>This is an test.</p><p>All good here.</p>', check);
  await vi.waitFor(() => expect(underlined(e)).toEqual(['an']));
  expect(check).toHaveBeenCalledWith('This is an test.');
  expect(check).toHaveBeenCalledWith('All good here.');

  // An edit elsewhere in the paragraph keeps its underline (mapped), so underlines do not blink while typing.
  e.commands.insertContentAt(endOfBlock(e.state.doc, 0), ' Also an cat.');
  expect(underlined(e)).toEqual(['an']);
  await vi.waitFor(() => expect(underlined(e)).toEqual(['an', 'an']));
  expect(check).toHaveBeenLastCalledWith('This is an test. Also an cat.');
  expect(check.mock.calls.filter(([text]) => text === 'All good here.')).toHaveLength(1);

  // An edit touching an underlined word removes that underline until the paragraph is checked again.
  const an = e.state.doc.textContent.indexOf('an cat') + 1;
  e.commands.insertContentAt({ from: an, to: an + 2 }, 'a');
  expect(underlined(e)).toEqual(['an']);
  await vi.waitFor(() => expect(check).toHaveBeenLastCalledWith('This is an test. Also a cat.'));
  expect(underlined(e)).toEqual(['an']);
});

it('holds back the word being typed at the caret until the writer types past it or moves away', async () => {
  const e = setup('<p>I</p>');
  await vi.waitFor(() => expect(liveGrammarKey.getState(e.state)).toBeDefined());
  e.commands.setTextSelection(endOfBlock(e.state.doc, 0));
  e.commands.insertContent(' recieved');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(underlined(e)).toEqual([]);

  e.commands.insertContent(' the');
  await vi.waitFor(() => expect(underlined(e)).toEqual(['recieved']));

  e.commands.insertContent(' recieved');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(underlined(e)).toEqual(['recieved']);
  // Moving the caret (no edit) shows it.
  e.view.dispatch(e.state.tr.setSelection(TextSelection.create(e.state.doc, 1)));
  await vi.waitFor(() => expect(underlined(e)).toEqual(['recieved', 'recieved']));
});

it('holds back a word being written into the middle of another until the caret leaves it', async () => {
  const check = vi.fn(fakeCheck);
  const e = setup('<p>I recved the parcel.</p>', check);
  await vi.waitFor(() => expect(check).toHaveBeenCalledTimes(1));
  const inside = e.state.doc.textContent.indexOf('ved') + 1;
  e.commands.setTextSelection(inside);
  e.commands.insertContent('ie'); // "recieved", the caret after "recie"
  await vi.waitFor(() => expect(check).toHaveBeenLastCalledWith('I recieved the parcel.'));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(underlined(e)).toEqual([]);
  // Moving the caret out of the word (no edit) shows it.
  e.view.dispatch(e.state.tr.setSelection(TextSelection.create(e.state.doc, 1)));
  await vi.waitFor(() => expect(underlined(e)).toEqual(['recieved']));
});

it('a whole-document replacement (how remote collaborators’ edits arrive) re-checks only what changed', async () => {
  const check = vi.fn(fakeCheck);
  const e = setup('<p>First an test.</p><p>Second paragraph.</p><p>Third an cat.</p>', check);
  await vi.waitFor(() => expect(underlined(e)).toEqual(['an', 'an']));
  check.mockClear();

  const blocks: PmNode[] = [];
  e.state.doc.forEach((node) => blocks.push(node));
  blocks[1] = e.schema.node('paragraph', null, e.schema.text('Second an dog.'));
  const tr = e.state.tr.replace(0, e.state.doc.content.size, new Slice(Fragment.from(blocks), 0, 0));
  e.view.dispatch(tr);
  // The unchanged paragraphs keep their underlines through the replacement.
  expect(underlined(e)).toEqual(['an', 'an']);
  await vi.waitFor(() => expect(underlined(e)).toEqual(['an', 'an', 'an']));
  expect(check.mock.calls).toEqual([['Second an dog.']]);
});

it('drops an answer for a paragraph edited meanwhile and checks its latest text', async () => {
  const answers: { text: string; resolve: () => void }[] = [];
  const check = vi.fn(
    (text: string) =>
      new Promise<GrammarChange[]>((resolve) =>
        answers.push({ text, resolve: () => void fakeCheck(text).then(resolve) }),
      ),
  );
  const e = setup('<p>Draft</p>', check);
  await vi.waitFor(() => expect(answers).toHaveLength(1));
  e.commands.insertContentAt(endOfBlock(e.state.doc, 0), ' with an cat.');
  answers[0]!.resolve(); // The answer for "Draft" arrives after the edit.
  await vi.waitFor(() => expect(answers).toHaveLength(2));
  expect(underlined(e)).toEqual([]);
  expect(answers[1]!.text).toBe('Draft with an cat.');
  answers[1]!.resolve();
  await vi.waitFor(() => expect(underlined(e)).toEqual(['an']));
});

it('checks the paragraph with the caret before the rest of the document', async () => {
  const checked: string[] = [];
  const paragraphs = Array.from({ length: 30 }, (_, i) => `<p>Paragraph ${i}.</p>`).join('');
  editor = new Editor({ extensions: createEditorExtensions({ history: true }), content: paragraphs });
  const e = editor;
  e.commands.setTextSelection(endOfBlock(e.state.doc, 20));
  e.registerPlugin(
    liveGrammarPlugin({
      check: (text) => {
        checked.push(text);
        return fakeCheck(text);
      },
      delayMs: 5,
      onIssueClick: () => {},
    }),
  );
  await vi.waitFor(() => expect(checked).toHaveLength(30));
  expect(checked.slice(0, 3)).toEqual(['Paragraph 20.', expect.any(String), expect.any(String)]);
  expect(new Set(checked.slice(1, 3))).toEqual(new Set(['Paragraph 19.', 'Paragraph 21.']));
});

it('while the writer types, other paragraphs wait for a pause and checks leave the checker half its time', async () => {
  const checked: { text: string; at: number }[] = [];
  const check = (text: string) => {
    checked.push({ text, at: performance.now() });
    // Each check takes 30 ms, like a long sentence in Harper.
    return new Promise<GrammarChange[]>((resolve) =>
      setTimeout(() => void fakeCheck(text).then(resolve), 30),
    );
  };
  editor = new Editor({
    extensions: createEditorExtensions({ history: true }),
    content: '<p>Typing here</p><p>Other an cat.</p>',
  });
  const e = editor;
  e.registerPlugin(liveGrammarPlugin({ check, delayMs: 0, idleMs: 150, onIssueClick: () => {} }));
  await vi.waitFor(() => expect(underlined(e)).toEqual(['an']));
  checked.length = 0;

  // A collaborator's edit to the second paragraph arrives while this writer types in the first, for 300 ms.
  e.commands.insertContentAt(endOfBlock(e.state.doc, 1), ' And an dog.');
  const started = performance.now();
  while (performance.now() - started < 300) {
    e.commands.insertContentAt(endOfBlock(e.state.doc, 0), 'x');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const stopped = performance.now();
  await vi.waitFor(() => expect(underlined(e)).toEqual(['an', 'an']));
  const other = checked.filter((c) => c.text.startsWith('Other'));
  expect(other).toHaveLength(1);
  expect(other[0]!.at).toBeGreaterThanOrEqual(stopped);
  // 30 ms checks with 30 ms rests: at most one check per 60 ms of typing (+1 for the first).
  const typing = checked.filter((c) => c.text.startsWith('Typing') && c.at < stopped);
  expect(typing.length).toBeGreaterThan(1);
  expect(typing.length).toBeLessThanOrEqual(Math.ceil(300 / 60) + 1);
});

it('does not start the checker while the writer is typing: the first check waits for a pause', async () => {
  let started = false;
  const checked: number[] = [];
  const check = (text: string) => {
    started = true;
    checked.push(performance.now());
    return fakeCheck(text);
  };
  editor = new Editor({ extensions: createEditorExtensions({ history: true }), content: '<p>Start</p>' });
  const e = editor;
  // The writer is already typing when the plugin arrives.
  e.commands.insertContentAt(endOfBlock(e.state.doc, 0), ' x');
  e.registerPlugin(
    liveGrammarPlugin({ check, delayMs: 0, idleMs: 100, started: () => started, onIssueClick: () => {} }),
  );
  const begin = performance.now();
  while (performance.now() - begin < 250) {
    e.commands.insertContentAt(endOfBlock(e.state.doc, 0), ' an cat');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const stopped = performance.now();
  await vi.waitFor(() => expect(underlined(e).length).toBeGreaterThan(0));
  expect(checked[0]).toBeGreaterThanOrEqual(stopped);
});

it('shows the answers for many paragraphs in a few transactions, not one per paragraph', async () => {
  const paragraphs = Array.from({ length: 30 }, (_, i) => `<p>Paragraph ${i} has an cat.</p>`).join('');
  editor = new Editor({ extensions: createEditorExtensions({ history: true }), content: paragraphs });
  const e = editor;
  let underlineTransactions = 0;
  e.on('transaction', ({ transaction }) => {
    if (transaction.getMeta(liveGrammarKey)) underlineTransactions++;
  });
  e.registerPlugin(liveGrammarPlugin({ check: fakeCheck, delayMs: 0, onIssueClick: () => {} }));
  await vi.waitFor(() => expect(underlined(e)).toHaveLength(30));
  // The caret's paragraph at once, the other 29 together: each transaction re-renders the whole editor.
  expect(underlineTransactions).toBeLessThanOrEqual(3);
});

it('after opening, checks nothing for a while, and a writer who starts typing then holds the first pass until a pause', async () => {
  let started = false;
  const checked: number[] = [];
  const check = (text: string) => {
    started = true;
    checked.push(performance.now());
    return fakeCheck(text);
  };
  editor = new Editor({
    extensions: createEditorExtensions({ history: true }),
    content: '<p>This is an test.</p><p>Another an cat.</p>',
  });
  const e = editor;
  const opened = performance.now();
  e.registerPlugin(
    liveGrammarPlugin({
      check,
      delayMs: 0,
      idleMs: 100,
      firstPassAfterMs: 150,
      started: () => started,
      onIssueClick: () => {},
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 80));
  expect(checked).toEqual([]);
  // The writer starts typing within the first moments and goes on past them.
  while (performance.now() - opened < 400) {
    e.commands.insertContentAt(endOfBlock(e.state.doc, 0), 'x');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const stopped = performance.now();
  await vi.waitFor(() => expect(underlined(e)).toEqual(['an', 'an']));
  expect(checked[0]).toBeGreaterThanOrEqual(stopped);
});

it('through the place the editor keeps for it: underlines come and go without a change of the plugin list', async () => {
  editor = new Editor({
    extensions: [...createEditorExtensions({ history: true }), LiveGrammarSlot],
    content: '<p>This is an test.</p>',
  });
  const e = editor;
  const slot = liveGrammarSlotOf(e)!;
  const plugins = e.state.plugins;
  const underlines = () => e.view.dom.querySelectorAll('.qw-grammar-issue').length;

  StandInPlugin.adopt(e.view, [
    [slot, liveGrammarPlugin({ check: fakeCheck, delayMs: 5, onIssueClick: () => {} })],
  ]);
  await vi.waitFor(() => expect(underlined(e)).toEqual(['an']));
  expect(underlines()).toBe(1);

  // Switched off: the underlines go, and switched on again they come back.
  StandInPlugin.release(e.view, [slot]);
  expect(liveGrammarKey.getState(e.state)).toBeNull();
  expect(underlines()).toBe(0);
  StandInPlugin.adopt(e.view, [
    [slot, liveGrammarPlugin({ check: fakeCheck, delayMs: 5, onIssueClick: () => {} })],
  ]);
  await vi.waitFor(() => expect(underlines()).toBe(1));
  expect(e.state.plugins).toBe(plugins);
});
