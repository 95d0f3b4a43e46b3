import { Editor } from '@tiptap/core';
import { describe, expect, it } from 'vitest';
import type { RichTextDoc } from '@shared/schemas/richText';
import { decideSuggestions } from '@shared/suggestions/resolve';
import { textWithPositions } from '@client/features/editor';
import {
  applyAnswerAsSuggestion,
  applyGrammarChangesAsSuggestions,
  decideSuggestionsInEditor,
  findSuggestionChanges,
  newSuggestionGroup,
  suggestionChangeAt,
} from './suggestion-ops';
import {
  rangeOfText as rangeOf,
  testEditors,
  trackedBlocks,
} from '@client/features/editor/editor-ops.testing';

const makeEditor = testEditors();

/** The text with deletions as [-…-] and insertions as {+…+}, blocks joined by " | ". */
const tracked = (e: Editor) => trackedBlocks(e).join(' | ');

const plain = (e: Editor) => e.state.doc.textContent;

describe('AI answers as suggestions', () => {
  it('marks only the words that changed, keeping punctuation, spaces and formatting of the rest', () => {
    const e = makeEditor('<p>Intro. <strong>teh cat sat</strong> on the mat, quietly.</p>');
    const range = { from: rangeOf(e, 'teh').from, to: rangeOf(e, 'quietly.').to };
    applyAnswerAsSuggestion(e, range, 'The cat sat on a mat, quietly!', 'replace');
    expect(tracked(e)).toBe('Intro. [-teh-]{+The+} cat sat on [-the-]{+a+} mat, [-quietly.-]{+quietly!+}');
    // Unchanged words keep their marks; the new word takes the formatting of its place.
    const bold = e.getHTML();
    expect(bold).toContain('<strong>');
    expect(bold).toMatch(/<strong><del[^>]*>teh<\/del><ins[^>]*>The<\/ins> cat sat<\/strong>/);
  });

  it('accepting everything equals applying the answer; rejecting everything restores the text', () => {
    const original = '<p>The quick brown fox jumps over the lazy dog.</p>';
    const answer = 'A quick red fox leaps over the lazy dog!';
    const e = makeEditor(original);
    applyAnswerAsSuggestion(e, rangeOf(e, 'The quick brown fox jumps over the lazy dog.'), answer, 'replace');
    const withSuggestions = e.getJSON() as RichTextDoc;
    decideSuggestionsInEditor(e, 'accept');
    expect(plain(e)).toBe(answer);
    expect(findSuggestionChanges(e)).toEqual([]);
    // The stored-content rules (exports) agree with the editor.
    expect(
      decideSuggestions(withSuggestions, 'accept')
        .content[0]!.content!.map((n) => n.text)
        .join(''),
    ).toBe(answer);
    e.commands.undo();
    decideSuggestionsInEditor(e, 'reject');
    expect(plain(e)).toBe('The quick brown fox jumps over the lazy dog.');
    expect(e.getHTML()).toBe(original);
  });

  it('decides one change at the caret and leaves the others', () => {
    const e = makeEditor('<p>one two three four</p>');
    applyAnswerAsSuggestion(e, rangeOf(e, 'one two three four'), 'one 2 three 4', 'replace');
    const changes = findSuggestionChanges(e);
    expect(changes).toHaveLength(2);
    const first = suggestionChangeAt(e, changes[0]!.from + 1)!;
    decideSuggestionsInEditor(e, 'accept', { id: first.id, from: first.from, to: first.to });
    expect(tracked(e)).toBe('one 2 three [-four-]{+4+}');
    const second = findSuggestionChanges(e)[0]!;
    decideSuggestionsInEditor(e, 'reject', { id: second.id, from: second.from, to: second.to });
    expect(tracked(e)).toBe('one 2 three four');
  });

  it('each answer is its own group; a group is accepted as a whole', () => {
    const e = makeEditor('<p>alpha beta</p><p>gamma delta</p>');
    const first = newSuggestionGroup();
    applyAnswerAsSuggestion(e, rangeOf(e, 'alpha beta'), 'alpha BETA', 'replace', first);
    applyAnswerAsSuggestion(e, rangeOf(e, 'gamma delta'), 'GAMMA delta', 'replace');
    decideSuggestionsInEditor(e, 'accept', { id: first.id });
    expect(tracked(e)).toBe('alpha BETA | [-gamma-]{+GAMMA+} delta');
  });

  it('is one undo step', () => {
    const e = makeEditor('<p>Hello brave world.</p>');
    applyAnswerAsSuggestion(e, rangeOf(e, 'Hello brave world.'), 'Hello bold world.', 'replace');
    expect(tracked(e)).toBe('Hello [-brave-]{+bold+} world.');
    e.commands.undo();
    expect(tracked(e)).toBe('Hello brave world.');
  });

  it('a continuation is inserted as one suggested insertion', () => {
    const e = makeEditor('<p>It was late.</p>');
    const range = rangeOf(e, 'It was late.');
    applyAnswerAsSuggestion(e, { from: range.to, to: range.to }, 'The lamps were lit.', 'append');
    expect(tracked(e)).toBe('It was late.{+ The lamps were lit.+}');
  });

  it('a block answer is inserted after the text, which is marked for deletion', () => {
    const e = makeEditor('<p>Old paragraph.</p>');
    applyAnswerAsSuggestion(e, rangeOf(e, 'Old paragraph.'), 'First new.\n\nSecond new.', 'replace');
    expect(tracked(e)).toBe('[-Old paragraph.-] | {+First new.+} | {+Second new.+}');
    decideSuggestionsInEditor(e, 'accept');
    expect(e.getHTML()).toBe('<p></p><p>First new.</p><p>Second new.</p>');
  });

  it('grammar fixes become suggestions', () => {
    const e = makeEditor('<p>Their is a error here.</p>');
    const source = textWithPositions(e.state.doc, 0, e.state.doc.content.size);
    const applied = applyGrammarChangesAsSuggestions(e, source, [
      { offset: 0, length: 5, original: 'Their', replacement: 'There', message: '', kind: 'Spelling' },
      { offset: 9, length: 1, original: 'a', replacement: 'an', message: '', kind: 'Grammar' },
    ]);
    expect(applied).toBe(2);
    expect(tracked(e)).toBe('[-Their-]{+There+} is [-a-]{+an+} error here.');
  });
});
