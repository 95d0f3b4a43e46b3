import { Editor } from '@tiptap/core';
import { afterEach, beforeAll } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import { loadMarkdown } from './editor-ops';

/**
 * For tests of code that works on a live editor: a factory of editors with the app's extensions and undo
 * history, each destroyed after its test. AI answers are parsed as Markdown, whose parser the editor page
 * loads after its first paint, so it is loaded before the tests run.
 */
export function testEditors(): (html: string) => Editor {
  let editor: Editor | undefined;
  beforeAll(() => loadMarkdown());
  afterEach(() => editor?.destroy());
  return (html) => {
    editor = new Editor({ extensions: createEditorExtensions({ history: true }), content: html });
    return editor;
  };
}

/** The positions of the first occurrence of `text` in one text node of the document. */
export function rangeOfText(editor: Editor, text: string): { from: number; to: number } {
  let found: { from: number; to: number } | null = null;
  editor.state.doc.descendants((node, pos) => {
    if (found || !node.isText || !node.text) return;
    const index = node.text.indexOf(text);
    if (index >= 0) found = { from: pos + index, to: pos + index + text.length };
  });
  if (!found) throw new Error(`"${text}" not in document`);
  return found;
}

/** Each block's text with tracked deletions as [-…-] and insertions as {+…+}. */
export function trackedBlocks(editor: Editor): string[] {
  const blocks: string[] = [];
  editor.state.doc.descendants((node) => {
    if (!node.isTextblock) return true;
    let text = '';
    node.forEach((child) => {
      const kind = child.marks.find((m) => m.type.name === 'insertion' || m.type.name === 'deletion');
      const value = child.text ?? '';
      text += kind?.type.name === 'insertion' ? `{+${value}+}` : kind ? `[-${value}-]` : value;
    });
    blocks.push(text);
    return false;
  });
  return blocks;
}
