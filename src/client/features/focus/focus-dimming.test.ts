import { Editor } from '@tiptap/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import { CURRENT_BLOCK_CLASS, DIMMED_TEXT_CLASS, DIMMING_CLASS, FocusDimming } from './focus-dimming';
import { setFocusSettings } from './settings';

let editor: Editor | undefined;
beforeEach(() => {
  window.localStorage.clear();
  setFocusSettings({ dimming: false, dimUnit: 'sentence', typewriter: false });
});
afterEach(() => editor?.destroy());

function makeEditor(html: string): Editor {
  editor = new Editor({
    extensions: [...createEditorExtensions({ history: false }), FocusDimming],
    content: html,
  });
  return editor;
}

/** What is lit: the text of the current blocks outside the dimmed spans. */
function lit(e: Editor): string[] {
  return [...e.view.dom.querySelectorAll(`.${CURRENT_BLOCK_CLASS}`)].map((block) => {
    const copy = block.cloneNode(true) as HTMLElement;
    for (const dimmed of copy.querySelectorAll(`.${DIMMED_TEXT_CLASS}`)) dimmed.remove();
    return copy.textContent ?? '';
  });
}

it('is off by default and never changes the document', () => {
  const e = makeEditor('<p>One. Two.</p><p>Three.</p>');
  const before = e.getJSON();
  expect(e.view.dom.classList.contains(DIMMING_CLASS)).toBe(false);
  expect(e.view.dom.querySelector(`.${CURRENT_BLOCK_CLASS}`)).toBeNull();

  setFocusSettings({ dimming: true });
  expect(e.view.dom.classList.contains(DIMMING_CLASS)).toBe(true);
  expect(e.getJSON()).toEqual(before);
});

it('keeps the sentence holding the caret lit and follows the caret', () => {
  const e = makeEditor('<p>One here. Two there. Three.</p><p>Next paragraph.</p>');
  setFocusSettings({ dimming: true, dimUnit: 'sentence' });
  e.commands.setTextSelection(14); // inside "Two there."
  expect(lit(e)).toEqual(['Two there.']);

  e.commands.setTextSelection(3);
  expect(lit(e)).toEqual(['One here.']);

  // Another paragraph: its own sentence is lit, the first paragraph is dimmed as a whole by the body's class.
  e.commands.setTextSelection(e.state.doc.content.size - 2);
  expect(lit(e)).toEqual(['Next paragraph.']);
});

it('keeps the whole paragraph lit in paragraph mode, and only its list item in a list', () => {
  const e = makeEditor('<p>One. Two.</p><ul><li><p>Alpha. Beta.</p></li><li><p>Gamma.</p></li></ul>');
  setFocusSettings({ dimming: true, dimUnit: 'paragraph' });
  e.commands.setTextSelection(3);
  expect(lit(e)).toEqual(['One. Two.']);

  e.commands.setTextSelection(16); // in "Alpha. Beta."
  expect(lit(e)).toEqual(['Alpha. Beta.']);
});

it('lights every block a selection across paragraphs touches', () => {
  const e = makeEditor('<p>One.</p><p>Two.</p><p>Three.</p>');
  setFocusSettings({ dimming: true });
  e.commands.setTextSelection({ from: 2, to: 9 });
  expect(lit(e)).toEqual(['One.', 'Two.']);
});

it('goes quiet again when turned off', () => {
  const e = makeEditor('<p>One. Two.</p>');
  setFocusSettings({ dimming: true });
  setFocusSettings({ dimming: false });
  expect(e.view.dom.classList.contains(DIMMING_CLASS)).toBe(false);
  expect(e.view.dom.querySelector(`.${DIMMED_TEXT_CLASS}`)).toBeNull();
});
