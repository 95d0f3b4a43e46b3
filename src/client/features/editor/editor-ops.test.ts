import { Editor } from '@tiptap/core';
import { afterEach, expect, it } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import {
  Anchor,
  anchorSelection,
  applyAnswer,
  applyGrammarChanges,
  paragraphAtCursor,
  textWithPositions,
} from './editor-ops';
import { rangeOfText, testEditors } from './editor-ops.testing';

const makeEditor = testEditors();
let collabEditor: Editor | undefined;
afterEach(() => collabEditor?.destroy());

/** Selects the first occurrence of `text` in the document. */
function select(e: Editor, text: string) {
  e.commands.setTextSelection(rangeOfText(e, text));
}

it('an accepted answer replaces the anchored text as one undo step, keeping the formatting', () => {
  const e = makeEditor('<p>Intro. <strong>teh cat sat</strong> on the mat.</p>');
  select(e, 'teh cat sat');
  const anchor = anchorSelection(e)!;
  expect(anchor.originalText).toBe('teh cat sat');
  applyAnswer(e, anchor.resolve()!, 'The cat sat', 'replace');
  expect(e.getHTML()).toBe('<p>Intro. <strong>The cat sat</strong> on the mat.</p>');
  e.commands.undo();
  expect(e.getHTML()).toBe('<p>Intro. <strong>teh cat sat</strong> on the mat.</p>');
});

it('the anchor follows typing before it and notices edits inside it', () => {
  const e = makeEditor('<p>Hello brave world.</p>');
  select(e, 'brave');
  const anchor = anchorSelection(e)!;
  e.commands.insertContentAt(1, 'Oh, ');
  expect(anchor.currentText()).toBe('brave');
  expect(anchor.isIntact()).toBe(true);
  const range = anchor.resolve()!;
  e.commands.insertContentAt(range.from + 2, 'XX');
  expect(anchor.isIntact()).toBe(false);
  anchor.dispose();
});

it('Markdown answers become nodes after the anchored block', () => {
  const e = makeEditor('<p>Bees matter.</p><p>The end.</p>');
  select(e, 'Bees matter.');
  const anchor = anchorSelection(e)!;
  applyAnswer(e, anchor.resolve()!, '## Summary\n\n- Bees pollinate\n- Bees make honey', 'after');
  expect(e.getHTML()).toBe(
    '<p>Bees matter.</p><h2>Summary</h2><ul><li><p>Bees pollinate</p></li><li><p>Bees make honey</p></li></ul><p>The end.</p>',
  );
  e.commands.undo();
  expect(e.getHTML()).toBe('<p>Bees matter.</p><p>The end.</p>');
});

it('a plain completion is appended inline with a space', () => {
  const e = makeEditor('<p>Once upon a time</p>');
  const end = e.state.doc.content.size - 1;
  applyAnswer(e, new Anchor(e, end, end, '').resolve()!, 'there was a fox.', 'append');
  expect(e.getHTML()).toBe('<p>Once upon a time there was a fox.</p>');
});

it('grammar changes map from text offsets to document positions across blocks', () => {
  const e = makeEditor('<p>This is an test.</p><p>We and and they.</p>');
  const source = textWithPositions(e.state.doc, 0, e.state.doc.content.size);
  expect(source.text).toBe('This is an test.\n\nWe and and they.');
  const applied = applyGrammarChanges(e, source, [
    { offset: 8, length: 2, original: 'an', replacement: 'a', message: '', kind: 'Miscellaneous' },
    { offset: 21, length: 7, original: 'and and', replacement: 'and', message: '', kind: 'Repetition' },
  ]);
  expect(applied).toBe(2);
  expect(e.getHTML()).toBe('<p>This is a test.</p><p>We and they.</p>');
  e.commands.undo();
  expect(e.getHTML()).toBe('<p>This is an test.</p><p>We and and they.</p>');
});

it('with Yjs, the anchor survives a collaborator’s edit and the applied answer is one Yjs undo step', async () => {
  const { default: Collaboration } = await import('@tiptap/extension-collaboration');
  const Y = await import('yjs');
  const ydoc = new Y.Doc();
  const e = new Editor({
    extensions: [...createEditorExtensions({ history: false }), Collaboration.configure({ document: ydoc })],
  });
  collabEditor = e;
  e.commands.setContent('<p>Hello brave world.</p>');
  select(e, 'brave');
  const anchor = anchorSelection(e)!;

  // A collaborator types at the start of the paragraph (y-prosemirror rebuilds the whole document).
  const remote = new Y.Doc();
  Y.applyUpdate(remote, Y.encodeStateAsUpdate(ydoc));
  const paragraph = remote.getXmlFragment('default').get(0) as InstanceType<typeof Y.XmlElement>;
  (paragraph.get(0) as InstanceType<typeof Y.XmlText>).insert(0, 'Well, ');
  Y.applyUpdate(ydoc, Y.encodeStateAsUpdate(remote));
  expect(e.getText()).toBe('Well, Hello brave world.');
  expect(anchor.currentText()).toBe('brave');

  applyAnswer(e, anchor.resolve()!, 'bold', 'replace');
  expect(e.getText()).toBe('Well, Hello bold world.');
  e.commands.undo();
  expect(e.getText()).toBe('Well, Hello brave world.');
  anchor.dispose();
});

it('a command without a selection works on the paragraph at the caret, or the last one with text before it', () => {
  const e = makeEditor('<p>First one.</p><p>Second <em>one</em>.</p><p></p>');
  select(e, 'Second');
  e.commands.setTextSelection(e.state.selection.to);
  const second = paragraphAtCursor(e)!;
  expect(second.text).toBe('Second one.');
  expect(e.state.doc.textBetween(second.from, second.to)).toBe('Second one.');
  // On the empty last line (a command typed on a new line): the paragraph before it.
  e.commands.setTextSelection(e.state.doc.content.size - 1);
  expect(paragraphAtCursor(e)?.text).toBe('Second one.');
  e.destroy();
  const blank = makeEditor('<p></p>');
  blank.commands.setTextSelection(1);
  expect(paragraphAtCursor(blank)).toBeNull();
});
