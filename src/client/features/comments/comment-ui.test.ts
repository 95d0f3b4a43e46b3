import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createEditorExtensions } from '@shared/editor/extensions';
import { selectionAnchor, threadRanges } from './anchor';
import { CommentUi, setHighlightState } from './comment-ui';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

let editor: Editor | null = null;
afterEach(() => {
  editor?.destroy();
  editor = null;
});

function makeEditor(content: string): Editor {
  editor = new Editor({
    extensions: [...createEditorExtensions({ history: false }), CommentUi],
    content,
  });
  return editor;
}

const marked = (id: string, text: string) => `<span data-comment-thread="${id}">${text}</span>`;

/** jsdom has no ClipboardEvent, which pasteHTML makes when given no event. */
function paste(target: Editor, html: string) {
  target.view.pasteHTML(html, new Event('paste') as ClipboardEvent);
}

function highlighted(target: Editor): string[] {
  return [...target.view.dom.querySelectorAll('.qw-comment')].map((element) => element.textContent ?? '');
}

describe('comment highlights', () => {
  it('highlights open threads, more strongly the active one, and not resolved ones', () => {
    const target = makeEditor(`<p>One ${marked(A, 'alpha')} and ${marked(B, 'beta')}.</p>`);
    expect(highlighted(target)).toEqual(['alpha', 'beta']);
    const alpha = target.view.dom.querySelector('.qw-comment');
    expect(alpha?.getAttribute('aria-description')).toBe('Commented');

    setHighlightState(target.view, { active: A });
    expect(target.view.dom.querySelector('.qw-comment-active')?.textContent).toBe('alpha');

    setHighlightState(target.view, { resolved: new Set([B]) });
    expect(highlighted(target)).toEqual(['alpha']);
  });

  it('finds the highlight again after typing inside and beside the passage', () => {
    const target = makeEditor(`<p>One ${marked(A, 'alpha')} end.</p><p>Second ${marked(B, 'beta')}</p>`);
    target.commands.insertContentAt(2, 'X');
    expect(highlighted(target)).toEqual(['alpha', 'beta']);
    // Inside the passage: the mark is not inclusive at its edges, but text typed inside it carries it.
    const { from } = threadRanges(target.state.doc).get(A)!;
    target.view.dispatch(target.state.tr.insertText('Z', from + 2));
    expect(highlighted(target)).toEqual(['alZpha', 'beta']);
  });

  it('says how many threads share an overlapping passage', () => {
    const target = makeEditor(`<p>${marked(A, `one ${marked(B, 'two')}`)}</p>`);
    const both = [...target.view.dom.querySelectorAll('.qw-comment')].find(
      (element) => element.textContent === 'two',
    );
    expect(both?.getAttribute('aria-description')).toBe('Commented (2 threads)');
    expect(both?.getAttribute('data-comment-threads')?.split(' ').sort()).toEqual([A, B].sort());
  });
});

describe('pasting commented text', () => {
  it('drops the thread from a copy pasted while the original is still there', () => {
    const target = makeEditor(`<p>Start ${marked(A, 'quoted')} end.</p><p>Second.</p>`);
    target.commands.setTextSelection(target.state.doc.content.size - 1);
    paste(target, `<p>${marked(A, 'quoted')}</p>`);
    const ranges = threadRanges(target.state.doc);
    expect(ranges.get(A)).toEqual({ from: 7, to: 13 });
    expect(target.getText()).toContain('quoted');
    expect(target.getHTML().match(/data-comment-thread/g)).toHaveLength(1);
  });

  it('keeps the thread when the text was cut and pasted elsewhere (the original is gone)', () => {
    const target = makeEditor(`<p>Start ${marked(A, 'quoted')} end.</p><p>Second.</p>`);
    const { from, to } = threadRanges(target.state.doc).get(A)!;
    target.view.dispatch(target.state.tr.delete(from, to));
    expect(threadRanges(target.state.doc).size).toBe(0);
    target.commands.setTextSelection(target.state.doc.content.size - 1);
    paste(target, `<p>${marked(A, 'quoted')}</p>`);
    expect(threadRanges(target.state.doc).has(A)).toBe(true);
    expect(highlighted(target)).toEqual(['quoted']);
  });

  it('keeps marks of threads not in this document (pasted from another) only if absent here, and strips only the copies', () => {
    const target = makeEditor(`<p>${marked(A, 'here')}</p><p>x</p>`);
    target.commands.setTextSelection(target.state.doc.content.size - 1);
    paste(target, `<p>${marked(A, 'a')} ${marked(B, 'b')}</p>`);
    expect(target.getHTML().match(new RegExp(A, 'g'))).toHaveLength(1);
    expect(target.getHTML().match(new RegExp(B, 'g'))).toHaveLength(1);
  });
});

describe('the anchor of a selection', () => {
  it('is the selected text with the text around it', () => {
    const target = makeEditor('<p>The quick brown fox</p><p>jumps over</p>');
    target.commands.setTextSelection({ from: 5, to: 10 });
    expect(selectionAnchor(target.state)).toEqual({
      quote: 'quick',
      prefix: 'The ',
      suffix: ' brown fox\njumps over',
      from: 5,
      to: 10,
    });
  });

  it('is null for an empty selection', () => {
    const target = makeEditor('<p>Text</p>');
    target.commands.setTextSelection(2);
    expect(selectionAnchor(target.state)).toBeNull();
  });
});
