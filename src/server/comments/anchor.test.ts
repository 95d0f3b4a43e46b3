import { describe, expect, it } from 'vitest';
import { parseRichText } from '../../shared/editor/content';
import type { RichTextDoc } from '../../shared/schemas/richText';
import { findPassage, markPassage, remarkThreads, threadOrder, unmarkThreads } from './anchor';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const docOf = (...texts: string[]): RichTextDoc => ({
  type: 'doc',
  content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});
const anchor = (
  quote: string,
  extra: { prefix?: string; suffix?: string; from?: number; to?: number } = {},
) => ({
  quote,
  prefix: extra.prefix ?? '',
  suffix: extra.suffix ?? '',
  ...(extra.from !== undefined ? { from: extra.from, to: extra.to } : {}),
});
const textAt = (content: RichTextDoc, range: { from: number; to: number } | null) =>
  range && parseRichText(content).textBetween(range.from, range.to, '|');

describe('finding a passage', () => {
  const content = docOf('The cat sat.', 'A cat ran, the cat hid.');

  it('uses the position hint when the text there is the quote', () => {
    const doc = parseRichText(content);
    // Second paragraph starts at 14 (12 + 2); its text at 15; "cat" of "A cat" at 17..20.
    expect(findPassage(doc, anchor('cat', { from: 17, to: 20 }))).toEqual({ from: 17, to: 20 });
  });

  it('ignores a stale hint and weighs the text around each occurrence', () => {
    const doc = parseRichText(content);
    const range = findPassage(doc, anchor('cat', { from: 1, to: 4, prefix: 'ran, the ', suffix: ' hid' }));
    expect(textAt(content, range)).toBe('cat');
    expect(range!.from).toBeGreaterThan(25);
  });

  it('reads any white space as one space, across paragraphs', () => {
    const doc = parseRichText(content);
    expect(textAt(content, findPassage(doc, anchor('sat.\n\n  A cat')))).toBe('sat.|A cat');
  });

  it('finds nothing for text that is not there, or white space alone', () => {
    const doc = parseRichText(content);
    expect(findPassage(doc, anchor('dog'))).toBeNull();
    expect(findPassage(doc, anchor('   '))).toBeNull();
  });
});

describe('marking and unmarking', () => {
  it('marks the passage, says unchanged when the thread is already there, and takes its mark off again', () => {
    const marked = markPassage(docOf('The cat sat.'), A, anchor('cat'));
    expect(marked).not.toBeNull();
    expect(marked).not.toBe('unchanged');
    const doc = marked as RichTextDoc;
    expect(doc.content![0]!.content).toEqual([
      { type: 'text', text: 'The ' },
      { type: 'text', text: 'cat', marks: [{ type: 'comment', attrs: { threadId: A } }] },
      { type: 'text', text: ' sat.' },
    ]);
    expect(markPassage(doc, A, anchor('sat'))).toBe('unchanged');
    expect(unmarkThreads(doc, [B])).toBeNull();
    expect(unmarkThreads(doc, [A])!.content![0]!.content).toEqual([{ type: 'text', text: 'The cat sat.' }]);
  });

  it('keeps other threads when one is taken off, and orders threads by where they start', () => {
    const both = markPassage(
      markPassage(docOf('The cat sat.'), A, anchor('sat')) as RichTextDoc,
      B,
      anchor('The cat'),
    ) as RichTextDoc;
    expect([...threadOrder(both)]).toEqual([
      [B, 0],
      [A, 1],
    ]);
    const left = unmarkThreads(both, [B])!;
    expect([...threadOrder(left)]).toEqual([[A, 0]]);
    expect(threadOrder('not a document').size).toBe(0);
  });
});

describe('marking threads again', () => {
  const C = '00000000-0000-4000-8000-00000000000c';
  const marked = (content: RichTextDoc, threadId: string) =>
    content.content!.map((block) =>
      (block.content ?? [])
        .filter((run) => run.marks?.some((mark) => mark.attrs?.threadId === threadId))
        .map((run) => run.text)
        .join(''),
    );

  it('marks the occurrence whose surroundings match, keeps marks already there, and skips missing quotes', () => {
    const withA = markPassage(docOf('A red door.', 'The red house.'), A, anchor('door')) as RichTextDoc;
    const again = remarkThreads(withA, [
      { id: A, anchor: anchor('house') },
      { id: B, anchor: anchor('red', { prefix: 'The ', suffix: ' house.' }) },
      { id: C, anchor: anchor('a quote that is gone') },
    ])!;
    expect(marked(again, A)).toEqual(['door', '']);
    expect(marked(again, B)).toEqual(['', 'red']);
    expect(marked(again, C)).toEqual(['', '']);
  });

  it('answers null when no thread was marked again', () => {
    const withA = markPassage(docOf('A red door.'), A, anchor('door')) as RichTextDoc;
    expect(remarkThreads(withA, [{ id: A, anchor: anchor('door') }])).toBeNull();
    expect(remarkThreads(withA, [{ id: B, anchor: anchor('window') }])).toBeNull();
    expect(remarkThreads(withA, [])).toBeNull();
  });
});
