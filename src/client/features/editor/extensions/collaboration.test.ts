import { Editor } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
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

it('a plugin registered as the editor opens (a menu, live grammar) does not render the whole document again', () => {
  const { e, ydoc } = setup(DocumentCollaboration);
  e.commands.setContent('<p>First.</p><p>Second.</p>');
  let transactions = 0;
  e.on('transaction', () => (transactions += 1));
  const before = e.state.doc;
  e.registerPlugin(new Plugin({ key: new PluginKey('menu'), view: () => ({}) }));
  expect(transactions).toBe(0);
  expect(e.state.doc).toBe(before);
  // TipTap's own binding replaces the document with a fresh render of the Yjs document.
  const plain = setup(Collaboration);
  plain.e.commands.setContent('<p>First.</p><p>Second.</p>');
  let plainTransactions = 0;
  plain.e.on('transaction', () => (plainTransactions += 1));
  plain.e.registerPlugin(new Plugin({ key: new PluginKey('menu'), view: () => ({}) }));
  expect(plainTransactions).toBe(1);

  // The binding still knows which node is which: typing and another writer's change land in the right paragraph.
  e.commands.insertContentAt(e.state.doc.child(0).nodeSize - 1, ' Edited');
  expect(ydoc.getXmlFragment('default').toString()).toBe(
    '<paragraph>First. Edited</paragraph><paragraph>Second.</paragraph>',
  );
  const other = new Y.Doc();
  Y.applyUpdate(other, Y.encodeStateAsUpdate(ydoc));
  ((other.getXmlFragment('default').get(1) as Y.XmlElement).get(0) as Y.XmlText).insert(0, 'Then ');
  Y.applyUpdate(ydoc, Y.encodeStateAsUpdate(other, Y.encodeStateVector(ydoc)));
  expect(e.getText({ blockSeparator: '|' })).toBe('First. Edited|Then Second.');
  e.unregisterPlugin('menu');
  e.commands.insertContentAt(e.state.doc.content.size - 1, '!');
  expect(ydoc.getXmlFragment('default').toString()).toBe(
    '<paragraph>First. Edited</paragraph><paragraph>Then Second.!</paragraph>',
  );
});
