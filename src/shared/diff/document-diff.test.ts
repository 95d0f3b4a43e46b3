import { describe, expect, it } from 'vitest';
import type { RichTextDoc } from '../schemas/richText';
import { diffDocuments, diffText, documentWordCount, hasChanges } from './document-diff';

const paragraph = (text: string) => ({ type: 'paragraph', content: text ? [{ type: 'text', text }] : [] });
const doc = (...content: RichTextDoc['content']): RichTextDoc => ({ type: 'doc', content });

describe('diffText', () => {
  it('marks only the words that changed', () => {
    expect(diffText('The quick brown fox', 'The slow brown fox')).toEqual([
      { kind: 'equal', text: 'The ' },
      { kind: 'delete', text: 'quick' },
      { kind: 'insert', text: 'slow' },
      { kind: 'equal', text: ' brown fox' },
    ]);
  });

  it('joins back to either side', () => {
    const parts = diffText('one two three', 'one three four');
    const before = parts
      .filter((p) => p.kind !== 'insert')
      .map((p) => p.text)
      .join('');
    const after = parts
      .filter((p) => p.kind !== 'delete')
      .map((p) => p.text)
      .join('');
    expect(before).toBe('one two three');
    expect(after).toBe('one three four');
  });
});

describe('diffDocuments', () => {
  it('keeps unchanged paragraphs equal and compares an edited one word by word', () => {
    const before = doc(paragraph('Intro stays.'), paragraph('We ship on Monday.'), paragraph('Outro.'));
    const after = doc(paragraph('Intro stays.'), paragraph('We ship on Friday.'), paragraph('Outro.'));
    const diff = diffDocuments(before, after);
    expect(diff.map((b) => b.kind)).toEqual(['equal', 'change', 'equal']);
    expect(diff[1]!.parts).toContainEqual({ kind: 'delete', text: 'Monday' });
    expect(diff[1]!.parts).toContainEqual({ kind: 'insert', text: 'Friday' });
  });

  it('shows added and removed blocks whole, in place', () => {
    const before = doc(paragraph('A'), paragraph('B'));
    const after = doc(
      paragraph('A'),
      { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'New' }] },
      paragraph('B'),
      paragraph('C'),
    );
    const diff = diffDocuments(before, after);
    expect(diff.map((b) => [b.kind, b.block.type, b.block.text])).toEqual([
      ['equal', 'paragraph', 'A'],
      ['insert', 'heading', 'New'],
      ['equal', 'paragraph', 'B'],
      ['insert', 'paragraph', 'C'],
    ]);
    expect(
      diffDocuments(after, before)
        .filter((b) => b.kind === 'delete')
        .map((b) => b.block.text),
    ).toEqual(['New', 'C']);
  });

  it('reads list items and quotes, and finds no change between equal documents', () => {
    const listDoc = doc({
      type: 'bulletList',
      content: [
        { type: 'listItem', content: [paragraph('milk')] },
        { type: 'listItem', content: [paragraph('eggs')] },
      ],
    });
    const diff = diffDocuments(listDoc, listDoc);
    expect(diff.map((b) => [b.block.container, b.block.text])).toEqual([
      ['bulletList', 'milk'],
      ['bulletList', 'eggs'],
    ]);
    expect(hasChanges(diff)).toBe(false);
  });
});

describe('documentWordCount', () => {
  it('counts words across blocks, not gluing the last word of one to the first of the next', () => {
    expect(documentWordCount(doc(paragraph('two words'), paragraph('three more words')))).toBe(5);
    expect(documentWordCount(doc())).toBe(0);
  });
});
