import { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import type { RichTextDoc } from '@shared/schemas/richText';
import { decideSuggestions } from '@shared/suggestions/resolve';
import { SuggestingMode } from './suggesting-mode';
import { decideSuggestionsInEditor, findSuggestionChanges } from './suggestion-ops';
import { rangeOfText, trackedBlocks } from '@client/features/editor/editor-ops.testing';

const ME = { author_id: 'user-1', author_name: 'Ada' };
const SOMEONE = { author_id: 'user-2', author_name: 'Grace' };

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

function makeEditor(html: string, author = ME): Editor {
  editor = new Editor({
    extensions: [...createEditorExtensions({ history: true }), SuggestingMode.configure({ author })],
    content: html,
  });
  editor.commands.setSuggesting(true);
  return editor;
}

/** The text with deletions as [-…-] and insertions as {+…+}, blocks joined by " | ". */
const tracked = (e: Editor) => trackedBlocks(e).join(' | ');

const positionAfter = (e: Editor, text: string) => rangeOfText(e, text).to;

function caretAt(e: Editor, position: number) {
  e.view.dispatch(e.state.tr.setSelection(TextSelection.create(e.state.doc, position)));
}

/** Types like a keyboard: each character one transaction at the caret. */
function type(e: Editor, text: string) {
  for (const character of text) e.view.dispatch(e.state.tr.insertText(character));
}

function backspace(e: Editor, times = 1) {
  for (let i = 0; i < times; i++) {
    const { from } = e.state.selection;
    e.view.dispatch(e.state.tr.delete(from - 1, from));
  }
}

function forwardDelete(e: Editor, times = 1) {
  for (let i = 0; i < times; i++) {
    const { from } = e.state.selection;
    e.view.dispatch(e.state.tr.delete(from, from + 1));
  }
}

describe('Suggesting mode', () => {
  it('turns typing into one insertion suggestion by the writer', () => {
    const e = makeEditor('<p>The cat sat.</p>');
    caretAt(e, positionAfter(e, 'The '));
    type(e, 'black ');
    expect(tracked(e)).toBe('The {+black +}cat sat.');
    const changes = findSuggestionChanges(e);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ source: 'user', authorName: 'Ada' });
  });

  it('marks deleted text instead of removing it, and Backspace walks back over it', () => {
    const e = makeEditor('<p>The cat sat.</p>');
    caretAt(e, positionAfter(e, 'The cat'));
    backspace(e, 4);
    expect(tracked(e)).toBe('The[- cat-] sat.');
    // The caret moved back over the marked text, so typing lands before it.
    type(e, 'X');
    expect(tracked(e)).toBe('The{+X+}[- cat-] sat.');
  });

  it('Delete moves forwards over the text it marks', () => {
    const e = makeEditor('<p>The cat sat.</p>');
    caretAt(e, positionAfter(e, 'The '));
    forwardDelete(e, 4);
    expect(tracked(e)).toBe('The [-cat -]sat.');
  });

  it('typing over a selection proposes the replacement after the struck text, as one change', () => {
    const e = makeEditor('<p>The cat sat.</p>');
    const to = positionAfter(e, 'The cat');
    e.view.dispatch(e.state.tr.setSelection(TextSelection.create(e.state.doc, to - 3, to)));
    type(e, 'dog');
    expect(tracked(e)).toBe('The [-cat-]{+dog+} sat.');
    expect(findSuggestionChanges(e)).toHaveLength(1);
    expect(e.state.selection.from).toBe(positionAfter(e, 'dog'));
  });

  it('deleting your own pending insertion withdraws it; someone else’s stays', () => {
    const e = makeEditor('<p>The cat sat.</p>');
    caretAt(e, positionAfter(e, 'The '));
    type(e, 'black ');
    backspace(e, 3);
    expect(tracked(e)).toBe('The {+bla+}cat sat.');

    e.storage.suggestingMode.author = SOMEONE;
    caretAt(e, positionAfter(e, 'bla'));
    backspace(e, 1);
    expect(tracked(e)).toBe('The {+bla+}cat sat.');
  });

  it('accepting gives the text as if typed directly; rejecting gives the original back', () => {
    const e = makeEditor('<p>The cat sat on the mat.</p>');
    caretAt(e, positionAfter(e, 'The cat'));
    backspace(e, 3);
    type(e, 'dog');
    caretAt(e, positionAfter(e, 'the mat'));
    type(e, ' quietly');
    const content = e.getJSON() as RichTextDoc;
    const asText = (doc: RichTextDoc) =>
      (doc.content[0]?.content ?? []).map((node) => (node as { text?: string }).text ?? '').join('');
    expect(asText(decideSuggestions(content, 'accept'))).toBe('The dog sat on the mat quietly.');
    expect(asText(decideSuggestions(content, 'reject'))).toBe('The cat sat on the mat.');
    decideSuggestionsInEditor(e, 'accept');
    expect(tracked(e)).toBe('The dog sat on the mat quietly.');
  });

  it('lets structure and formatting through untracked, and does nothing when switched off', () => {
    const e = makeEditor('<p>One two</p>');
    caretAt(e, positionAfter(e, 'One'));
    e.commands.splitBlock();
    expect(tracked(e)).toBe('One |  two');
    e.commands.setSuggesting(false);
    caretAt(e, positionAfter(e, 'two'));
    type(e, '!');
    expect(tracked(e)).toBe('One |  two!');
  });

  it('switches on and off in a document that ends in a list, and typing there is then a suggestion', () => {
    const e = makeEditor('<p>Shopping</p><ul><li><p>bread</p></li></ul>');
    expect(() => e.commands.setSuggesting(false)).not.toThrow();
    expect(() => e.commands.setSuggesting(true)).not.toThrow();
    caretAt(e, positionAfter(e, 'bread'));
    type(e, ' and milk');
    expect(tracked(e)).toMatch(/^Shopping \| bread\{\+ and milk\+\}/);
  });

  it('a forced mode cannot be switched off', () => {
    editor = new Editor({
      extensions: [
        ...createEditorExtensions({ history: true }),
        SuggestingMode.configure({ author: ME, forced: true }),
      ],
      content: '<p>Hi</p>',
    });
    editor.commands.setSuggesting(false);
    caretAt(editor, positionAfter(editor, 'Hi'));
    type(editor, '!');
    expect(tracked(editor)).toBe('Hi{+!+}');
  });
});

describe('Suggesting mode in tables and task lists', () => {
  const TABLE =
    '<p>Before.</p><table><tbody><tr><th><p>Name</p></th><th><p>Score</p></th></tr><tr><td><p>Ada</p></td><td><p>10</p></td></tr></tbody></table><p>After.</p>';

  it('removing a whole table is a visible deletion of all its text; rejecting it brings the table back', () => {
    const e = makeEditor(TABLE);
    let table = -1;
    e.state.doc.forEach((node, offset) => {
      if (node.type.name === 'table') table = offset;
    });
    const size = e.state.doc.nodeAt(table)!.nodeSize;
    e.view.dispatch(e.state.tr.delete(table, table + size));
    expect(e.getHTML()).toContain('<table');
    expect(tracked(e)).toBe('Before. | [-Name-] | [-Score-] | [-Ada-] | [-10-] | After.');
    expect(findSuggestionChanges(e).length).toBeGreaterThan(0);
    decideSuggestionsInEditor(e, 'reject');
    expect(tracked(e)).toBe('Before. | Name | Score | Ada | 10 | After.');
  });

  it('typing in a cell or a task item is an insertion suggestion there', () => {
    const e = makeEditor(
      `${TABLE}<ul data-type="taskList"><li data-type="taskItem" data-checked="false"><p>Buy milk</p></li></ul><p>End.</p>`,
    );
    caretAt(e, positionAfter(e, 'Ada'));
    type(e, ' L.');
    caretAt(e, positionAfter(e, 'Buy milk'));
    type(e, ' today');
    expect(tracked(e)).toBe('Before. | Name | Score | Ada{+ L.+} | 10 | After. | Buy milk{+ today+} | End.');
    decideSuggestionsInEditor(e, 'accept');
    expect(e.state.doc.textContent).toBe('Before.NameScoreAda L.10After.Buy milk todayEnd.');
  });
});
