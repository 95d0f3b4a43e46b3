import { describe, expect, it } from 'vitest';
import type { SuggestionAttributes } from '../../shared/editor/suggestion-marks';
import { sanitizeDocContent, type RichTextDoc } from '../../shared/schemas/richText';
import { acceptAllSuggestions, rejectAllSuggestions } from '../../shared/suggestions/resolve';
import { markAllInserted, proposeReplacement } from './suggest';

const ATTRS: SuggestionAttributes = {
  id: 'mcp-1',
  author_id: 'agent-1',
  author_name: 'the agent of Alice',
  source: 'ai',
  created_at: '2026-01-31T12:00:00.000Z',
};

const doc = (...content: RichTextDoc['content']): RichTextDoc => ({ type: 'doc', content });
const paragraph = (...content: NonNullable<RichTextDoc['content'][number]['content']>) => ({
  type: 'paragraph',
  content,
});
const text = (value: string, marks?: string[]) => ({
  type: 'text',
  text: value,
  ...(marks ? { marks: marks.map((type) => ({ type })) } : {}),
});

function propose(before: RichTextDoc, find: string, replace: string): RichTextDoc {
  const result = proposeReplacement(before, find, replace, ATTRS);
  if (!result.ok) throw new Error(result.reason);
  // What the writer will store must pass its validator.
  const checked = sanitizeDocContent(result.doc);
  if (!checked.ok) throw new Error(checked.message);
  return result.doc;
}

const plain = (value: RichTextDoc) =>
  value.content.map((block) => (block.content ?? []).map((node) => node.text ?? '').join('')).join('\n');

describe('proposeReplacement', () => {
  it('marks only the words that differ; rejecting gives the old text back, accepting the new one', () => {
    const before = doc(paragraph(text('The quick brown fox jumps.')));
    const after = propose(before, 'quick brown fox jumps', 'quick red fox leaps');
    expect(plain(rejectAllSuggestions(after))).toBe('The quick brown fox jumps.');
    expect(plain(acceptAllSuggestions(after))).toBe('The quick red fox leaps.');
    const marked = after.content[0]!.content!.filter((node) => node.marks);
    expect(marked.map((node) => [node.marks![0]!.type, node.text])).toEqual([
      ['deletion', 'brown'],
      ['insertion', 'red'],
      ['deletion', 'jumps'],
      ['insertion', 'leaps'],
    ]);
    expect(marked[0]!.marks![0]!.attrs).toEqual(ATTRS);
  });

  it('keeps the formatting of the text it marks, across formatted runs', () => {
    const before = doc(paragraph(text('Make it '), text('very bold', ['bold']), text(' now.')));
    const after = propose(before, 'it very bold now', 'it rather bold now');
    expect(plain(acceptAllSuggestions(after))).toBe('Make it rather bold now.');
    const deleted = after.content[0]!.content!.find((node) => node.text === 'very')!;
    expect(deleted.marks!.map((mark) => mark.type)).toEqual(['bold', 'deletion']);
    const inserted = after.content[0]!.content!.find((node) => node.text === 'rather')!;
    expect(inserted.marks!.map((mark) => mark.type)).toEqual(['bold', 'insertion']);
  });

  it('proposes a pure insertion and a pure deletion', () => {
    const before = doc(paragraph(text('A cat sat.')));
    expect(plain(acceptAllSuggestions(propose(before, 'A cat', 'A black cat')))).toBe('A black cat sat.');
    expect(plain(acceptAllSuggestions(propose(before, ' sat', '')))).toBe('A cat.');
  });

  it('finds text in nested blocks, and refuses text found twice, nowhere, or inside a pending suggestion', () => {
    const before = doc(
      { type: 'bulletList', content: [{ type: 'listItem', content: [paragraph(text('Item one'))] }] },
      paragraph(text('one more'), text(' pending', ['insertion'])),
    );
    expect(plain(acceptAllSuggestions(propose(before, 'Item one', 'Item two')))).toContain('one more');
    expect(proposeReplacement(before, 'one', 'two', ATTRS)).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect(proposeReplacement(before, 'three', 'four', ATTRS)).toMatchObject({
      ok: false,
      reason: 'not_found',
    });
    expect(proposeReplacement(before, 'more pending', 'less', ATTRS)).toMatchObject({
      ok: false,
      reason: 'not_found',
    });
  });
});

describe('markAllInserted', () => {
  it('marks every text of the blocks as a proposed insertion', () => {
    const blocks = markAllInserted([paragraph(text('New '), text('words', ['italic']))], ATTRS);
    expect(plain(rejectAllSuggestions(doc(...blocks)))).toBe('');
    expect(plain(acceptAllSuggestions(doc(...blocks)))).toBe('New words');
  });
});
