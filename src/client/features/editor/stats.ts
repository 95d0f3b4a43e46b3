import { countWords, readingTimeMinutes } from '@shared/analysis/text';

/** The Document Stats panel's numbers: words, characters, minutes to read. */
export interface DocumentStats {
  wordCount: number;
  charCount: number;
  readingTime: number;
}

/** Words are split on whitespace: the product's one word counter (shared/analysis). */
export { countWords };

/** Reading time as everywhere in the product (shared/analysis): 0 for an empty document, else at least 1. */
export { readingTimeMinutes };

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
