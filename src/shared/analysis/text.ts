import { READING_WORDS_PER_MINUTE } from '../constants';

/** Tokenising for the analysis: sentences and words with their offsets in a block's text. */

export interface Span {
  start: number;
  end: number;
}

/** Words split on whitespace (one rule for the word count and reading time everywhere in the product). */
export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/**
 * Minutes to read at 200 words a minute, rounded up: any text takes at least a minute, and an empty document
 * none (it would otherwise claim "1 min read" with nothing in it).
 */
export function readingTimeMinutes(wordCount: number): number {
  return wordCount <= 0 ? 0 : Math.max(1, Math.ceil(wordCount / READING_WORDS_PER_MINUTE));
}

/** Sentences of plain text, whitespace collapsed (the extractive summary picks from these). */
export function splitSentences(text: string): string[] {
  return (text.replace(/\s+/g, ' ').match(/[^.!?]+(?:[.!?]+["')\]]*|$)/g) ?? [])
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A word: letters and digits, with inner apostrophes and hyphens ("don't", "well-known"). */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

export function wordSpans(text: string, from = 0, to = text.length): Span[] {
  const spans: Span[] = [];
  const slice = text.slice(from, to);
  for (const match of slice.matchAll(WORD)) {
    spans.push({ start: from + match.index, end: from + match.index + match[0].length });
  }
  return spans;
}

/** Words after which a full stop does not end the sentence. */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'jr',
  'sr',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'no',
  'fig',
  'approx',
  'cf',
]);

/** A run of sentence-ending punctuation, closing quotes or brackets, then whitespace or the end. */
const TERMINATOR = /[.!?…]+["'”’)\]]*(?=\s|$)/gu;

/**
 * The sentences of one block of text (a paragraph, heading or list item), trimmed. A block never shares a
 * sentence with another, and a line break inside it ends a sentence too (lines of a poem, an address).
 */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  const push = (start: number, end: number) => {
    while (start < end && /\s/u.test(text[start]!)) start += 1;
    while (end > start && /\s/u.test(text[end - 1]!)) end -= 1;
    if (end > start) spans.push({ start, end });
  };
  let lineStart = 0;
  for (const line of text.split('\n')) {
    let start = lineStart;
    for (const match of line.matchAll(TERMINATOR)) {
      const at = lineStart + match.index;
      if (match[0].startsWith('.') && match[0].length === 1) {
        const before = /([\p{L}.]+)$/u.exec(text.slice(start, at))?.[1]?.toLowerCase() ?? '';
        // "Dr. Smith", "e.g. this", "J. R. R. Tolkien": not the end of a sentence.
        if (ABBREVIATIONS.has(before) || /^\p{L}$/u.test(before)) continue;
      }
      const end = at + match[0].length;
      push(start, end);
      start = end;
    }
    push(start, lineStart + line.length);
    lineStart += line.length + 1;
  }
  return spans;
}
