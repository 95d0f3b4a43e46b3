import { READING_WORDS_PER_MINUTE } from '@shared/constants';

/** SPEC §3 "Document statistics". */
export interface DocumentStats {
  wordCount: number;
  charCount: number;
  readingTime: number;
}

/** SPEC §5: words are split on whitespace; empty pieces do not count. */
export function countWords(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  return trimmed.split(/\s+/u).length;
}

/** SPEC §5: reading time = word count / 200, rounded up, minimum 1 minute. */
export function readingTimeMinutes(wordCount: number): number {
  return Math.max(1, Math.ceil(wordCount / READING_WORDS_PER_MINUTE));
}

/** Characters as the user perceives them (an emoji or accented letter counts once). */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

export function computeStats(text: string): DocumentStats {
  const wordCount = countWords(text);
  return { wordCount, charCount: countCharacters(text), readingTime: readingTimeMinutes(wordCount) };
}
