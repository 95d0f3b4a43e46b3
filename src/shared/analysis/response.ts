import type { AnalysisResponse } from '../schemas/ai';
import { analyzeBlocks, plainTextBlocks } from './analyze';
import { countWords, readingTimeMinutes } from './text';

/**
 * POST /api/ai/analyze's answer for plain text: readabilityScore, suggestions, wordCount (split on
 * whitespace) and reading time, with the details under `analysis`. The same analysis as the
 * editor's Analyze panel.
 */
export function analyzeText(text: string): AnalysisResponse {
  const result = analyzeBlocks(plainTextBlocks(text));
  const wordCount = countWords(text);
  const readingTime = readingTimeMinutes(wordCount);
  return {
    readabilityScore: result.readability.score,
    suggestions: result.suggestions,
    wordCount,
    estimatedReadingTime: readingTime,
    analysis: {
      readability: result.readability,
      sentiment: result.sentiment,
      improvements: result.suggestions,
      wordCount,
      charCount: text.length,
      sentenceCount: result.sentenceCount,
      readingTime,
    },
  };
}
