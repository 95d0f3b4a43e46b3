import { describe, expect, it } from 'vitest';
import type { RichTextDoc, RichTextNode } from '../schemas/richText';
import { diffDocuments, diffText, documentBlocks, documentWordCount, hasChanges } from './document-diff';

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

describe('list markers and formatting', () => {
  const styled = (
    text: string,
    marks: NonNullable<RichTextNode['marks']>,
    attrs?: RichTextNode['attrs'],
  ) => ({
    type: 'paragraph',
    ...(attrs ? { attrs } : {}),
    content: [{ type: 'text', text, marks }],
  });

  it('numbers ordered list items from the list start, bullets the others', () => {
    const blocks = documentBlocks(
      doc(
        {
          type: 'orderedList',
          attrs: { start: 3 },
          content: [
            { type: 'listItem', content: [paragraph('third'), paragraph('still third')] },
            { type: 'listItem', content: [paragraph('fourth')] },
          ],
        },
        { type: 'bulletList', content: [{ type: 'listItem', content: [paragraph('dot')] }] },
        paragraph('plain'),
      ),
    );
    expect(blocks.map((b) => [b.marker ?? null, b.text])).toEqual([
      ['3.', 'third'],
      [null, 'still third'],
      ['4.', 'fourth'],
      ['•', 'dot'],
      [null, 'plain'],
    ]);
  });

  it('an item added above does not mark the renumbered items below as changed', () => {
    const list = (...items: string[]) =>
      doc({
        type: 'orderedList',
        content: items.map((t) => ({ type: 'listItem', content: [paragraph(t)] })),
      });
    const diff = diffDocuments(list('b', 'c'), list('a', 'b', 'c'));
    expect(diff.map((b) => [b.kind, b.block.marker, b.block.text])).toEqual([
      ['insert', '1.', 'a'],
      ['equal', '2.', 'b'],
      ['equal', '3.', 'c'],
    ]);
  });

  it('shows a change of font, size, colour and alignment on text that stayed the same', () => {
    const version = doc(
      styled(
        'Hello world',
        [{ type: 'textStyle', attrs: { fontFamily: 'Georgia', fontSize: '24px', color: '#ef4444' } }],
        { textAlign: 'center' },
      ),
    );
    const now = doc(paragraph('Hello world'));
    const diff = diffDocuments(version, now);
    expect(hasChanges(diff)).toBe(true);
    expect(diff[0]!.kind).toBe('change');
    expect(diff[0]!.parts).toEqual([{ kind: 'equal', text: 'Hello world' }]);
    expect(diff[0]!.formatting).toEqual([
      { label: 'Alignment', before: 'center', after: 'left' },
      { label: 'Colour #ef4444', before: 'Hello world', after: null },
      { label: 'Font Georgia', before: 'Hello world', after: null },
      { label: 'Size 24px', before: 'Hello world', after: null },
    ]);
  });

  it('names the text a mark covers, and sees a mark moved to other words', () => {
    const version = doc({
      type: 'paragraph',
      content: [
        { type: 'text', text: 'The ' },
        { type: 'text', text: 'quick', marks: [{ type: 'bold' }] },
        { type: 'text', text: ' fox' },
      ],
    });
    const now = doc({
      type: 'paragraph',
      content: [
        { type: 'text', text: 'The quick ' },
        { type: 'text', text: 'fox', marks: [{ type: 'bold' }] },
      ],
    });
    expect(diffDocuments(version, now)[0]!.formatting).toEqual([
      { label: 'Bold', before: 'quick', after: 'fox' },
    ]);
    expect(hasChanges(diffDocuments(now, now))).toBe(false);
  });
});
