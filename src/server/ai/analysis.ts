import readability from 'text-readability';
import Sentiment from 'sentiment';
import { DEFAULT_READABILITY_SCORE, READING_WORDS_PER_MINUTE } from '../../shared/constants';
import type { AnalysisDetails, AnalysisResponse } from '../../shared/schemas/ai';

/**
 * Offline text analysis: readability (Flesch reading ease and Flesch–Kincaid grade via text-readability),
 * counts and reading time (SPEC §5: words split on whitespace, minutes = ceil(words / 200), at least 1)
 * and sentiment (AFINN via `sentiment`). No provider, no tokens.
 */
const sentimentAnalyzer = new Sentiment();

/** Sentences longer than this many words get a "split it" suggestion. */
const LONG_SENTENCE_WORDS = 30;

export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

export function readingTimeMinutes(wordCount: number): number {
  return Math.max(1, Math.ceil(wordCount / READING_WORDS_PER_MINUTE));
}

export function splitSentences(text: string): string[] {
  return (text.replace(/\s+/g, ' ').match(/[^.!?]+(?:[.!?]+["')\]]*|$)/g) ?? [])
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function readabilityLabel(ease: number): string {
  if (ease >= 90) return 'Very easy';
  if (ease >= 70) return 'Easy';
  if (ease >= 60) return 'Standard';
  if (ease >= 50) return 'Fairly difficult';
  if (ease >= 30) return 'Difficult';
  return 'Very difficult';
}

const round = (value: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

export function analyzeText(text: string): AnalysisResponse {
  const wordCount = countWords(text);
  const readingTime = readingTimeMinutes(wordCount);
  const sentences = splitSentences(text);
  const rawEase = wordCount > 0 ? readability.fleschReadingEase(text) : NaN;
  const ease = Number.isFinite(rawEase) ? rawEase : DEFAULT_READABILITY_SCORE * 10;
  const rawGrade = wordCount > 0 ? readability.fleschKincaidGrade(text) : NaN;
  const gradeLevel = Number.isFinite(rawGrade) ? Math.max(0, round(rawGrade)) : 0;
  const score = round(Math.min(100, Math.max(0, ease)) / 10);

  const sentimentResult = sentimentAnalyzer.analyze(text);
  const comparative = round(sentimentResult.comparative, 3);
  const sentimentLabel = comparative > 0.05 ? 'positive' : comparative < -0.05 ? 'negative' : 'neutral';

  const improvements: string[] = [];
  const long = sentences.filter((s) => countWords(s) > LONG_SENTENCE_WORDS).length;
  if (long > 0)
    improvements.push(
      `Split ${long} long sentence${long === 1 ? '' : 's'} (over ${LONG_SENTENCE_WORDS} words) into shorter ones.`,
    );
  if (ease < 50) improvements.push('Use shorter words and sentences to make the text easier to read.');
  const passive = (text.match(/\b(?:is|are|was|were|be|been|being)\s+\w+ed\b/gi) ?? []).length;
  if (passive >= 2) improvements.push(`Consider active voice: ${passive} passive constructions found.`);
  if (sentimentLabel === 'negative')
    improvements.push('The tone reads as negative; check that this is intended.');
  if (improvements.length === 0) improvements.push('The text reads well. No major issues found.');

  const analysis: AnalysisDetails = {
    readability: { score, fleschReadingEase: round(ease), gradeLevel, label: readabilityLabel(ease) },
    sentiment: { score: sentimentResult.score, comparative, label: sentimentLabel },
    improvements,
    wordCount,
    charCount: text.length,
    sentenceCount: sentences.length,
    readingTime,
  };
  return {
    readabilityScore: score,
    suggestions: improvements,
    wordCount,
    estimatedReadingTime: readingTime,
    analysis,
  };
}
