import { Editor } from '@tiptap/core';
import { afterEach, expect, it } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import { CARET_BLOCK_CLASS, CaretBlock } from './caret-block';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function marked(e: Editor): string[] {
  return [...e.view.dom.querySelectorAll(`.${CARET_BLOCK_CLASS}`)].map((block) => block.textContent ?? '');
}

it('keeps the block being typed in marked, including a line just made with Enter', () => {
  editor = new Editor({
    extensions: [...createEditorExtensions({ history: false }), CaretBlock],
    content: '<p>One</p><ul><li><p>Two</p></li></ul><p>Three</p>',
  });
  editor.commands.setTextSelection(2);
  expect(marked(editor)).toEqual(['One']);

  editor.commands.setTextSelection(editor.state.doc.content.size - 1);
  editor.commands.splitBlock();
  expect(marked(editor)).toEqual(['']);
  editor.commands.insertContent('Four');
  expect(marked(editor)).toEqual(['Four']);

  // A selection across blocks marks where it starts and where it ends, not everything between.
  editor.commands.setTextSelection({ from: 2, to: editor.state.doc.content.size - 1 });
  expect(marked(editor)).toEqual(['One', 'Four']);

  // Inside a list the whole top-level list is the block.
  editor.commands.setTextSelection(10);
  expect(marked(editor)).toEqual(['Two']);
});
