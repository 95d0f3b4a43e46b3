import { Editor } from '@tiptap/core';
import Collaboration from '@tiptap/extension-collaboration';
import { yUndoPluginKey } from '@tiptap/y-tiptap';
import { afterEach, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createEditorExtensions } from '@shared/editor/extensions';
import { DocumentCollaboration } from './collaboration';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function setup(collaboration: typeof Collaboration) {
  const ydoc = new Y.Doc();
  editor = new Editor({
    extensions: [...createEditorExtensions({ history: false }), collaboration.configure({ document: ydoc })],
  });
  editor.commands.setContent('<p>Start.</p>');
  let yjsTransactions = 0;
  ydoc.on('beforeTransaction', () => (yjsTransactions += 1));
  return { e: editor, ydoc, yjsTransactions: () => yjsTransactions };
}

it('a transaction that only changes decorations (a grammar answer) does not open a Yjs transaction', () => {
  const { e, yjsTransactions } = setup(DocumentCollaboration);
  e.view.dispatch(e.state.tr.setMeta('underlines', true));
  e.view.dispatch(e.state.tr.setMeta('underlines', false));
  expect(yjsTransactions()).toBe(0);
  // TipTap's own binding compares the whole document into Yjs on each of them.
  const plain = setup(Collaboration);
  plain.e.view.dispatch(plain.e.state.tr.setMeta('underlines', true));
  expect(plain.yjsTransactions()).toBe(1);
});

it('what the writer types still reaches the shared document and undoes as one step', () => {
  const { e, ydoc } = setup(DocumentCollaboration);
  (yUndoPluginKey.getState(e.state) as { undoManager: Y.UndoManager }).undoManager.stopCapturing();
  e.commands.insertContentAt(e.state.doc.content.size - 1, ' Hello');
  e.view.dispatch(e.state.tr.setMeta('underlines', true));
  e.commands.insertContentAt(e.state.doc.content.size - 1, ' world');
  expect(ydoc.getXmlFragment('default').toString()).toContain('Start. Hello world');
  e.commands.undo();
  expect(e.getText()).toBe('Start.');
});
