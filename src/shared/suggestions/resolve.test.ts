import { describe, expect, it } from 'vitest';
import type { RichTextDoc } from '../schemas/richText';
import { acceptAllSuggestions, decideSuggestions, hasSuggestions, rejectAllSuggestions } from './resolve';

const by = (id: string) => ({
  id,
  author_id: 'ai',
  author_name: 'Quillwright AI',
  source: 'ai',
  created_at: '2026-11-23T12:00:00.000Z',
});

const doc: RichTextDoc = {
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'The ' },
        { type: 'text', text: 'quick', marks: [{ type: 'bold' }, { type: 'deletion', attrs: by('a') }] },
        { type: 'text', text: 'swift', marks: [{ type: 'bold' }, { type: 'insertion', attrs: by('a') }] },
        { type: 'text', text: ' fox' },
        { type: 'text', text: ' jumps', marks: [{ type: 'insertion', attrs: by('b') }] },
        { type: 'text', text: '.' },
      ],
    },
  ],
};

const text = (d: RichTextDoc) =>
  d.content.map((block) => (block.content ?? []).map((node) => node.text).join('')).join('\n');

describe('deciding tracked changes in stored content', () => {
  it('accepting keeps insertions (their formatting too) and drops deletions', () => {
    const accepted = acceptAllSuggestions(doc);
    expect(text(accepted)).toBe('The swift fox jumps.');
    expect(accepted.content[0]!.content![1]).toEqual({
      type: 'text',
      text: 'swift',
      marks: [{ type: 'bold' }],
    });
    expect(hasSuggestions(accepted)).toBe(false);
  });

  it('rejecting gives the text as it stood', () => {
    const rejected = rejectAllSuggestions(doc);
    expect(text(rejected)).toBe('The quick fox.');
    expect(rejected.content[0]!.content![1]).toEqual({
      type: 'text',
      text: 'quick',
      marks: [{ type: 'bold' }],
    });
    expect(hasSuggestions(rejected)).toBe(false);
  });

  it('decides one suggestion group and leaves the others pending', () => {
    const decided = decideSuggestions(doc, 'accept', ['b']);
    expect(text(decided)).toBe('The quickswift fox jumps.');
    expect(hasSuggestions(decided)).toBe(true);
    expect(decided.content[0]!.content![4]).toEqual({ type: 'text', text: ' jumps' });
  });

  it('does not modify its input', () => {
    const before = JSON.stringify(doc);
    rejectAllSuggestions(doc);
    acceptAllSuggestions(doc);
    expect(JSON.stringify(doc)).toBe(before);
  });
});
