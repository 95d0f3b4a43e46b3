import {
  ANALYSIS_FALLBACK_SUGGESTION,
  DEFAULT_READABILITY_SCORE,
  SENTENCE_LENGTH_BUCKETS,
} from '../constants';
import type { Span } from './text';

/**
 * What the document analysis answers (analyze.ts), and what can be used without loading the analysis itself:
 * the editor's panel imports this, the analysis libraries stay in the worker (docs/ai.md "Analysis").
 */

/** One text block of the document. `runs` map offsets in `text` to document positions (see `positionAt`). */
export interface AnalysisBlock {
  text: string;
  /**
   * Runs of characters that are contiguous in the document, in order: the character at offset `i` is at
   * `pos + (i - offset)` of the last run with `offset <= i`. A plain paragraph has one run; a line break or
   * text left out (a suggested deletion) starts another.
   */
  runs: { offset: number; pos: number }[];
}

export interface AnalysisRange {
  from: number;
  to: number;
}

export interface LongSentence extends AnalysisRange {
  words: number;
  text: string;
}

export interface PassiveConstruction extends AnalysisRange {
  text: string;
}

export interface RepeatedWord {
  word: string;
  /** Uses in the whole document. */
  count: number;
  /** Uses within REPEATED_WORD_WINDOW words of the previous one. */
  closeRepeats: number;
  /** Whether it is reported for its count (overused) and not only for close repeats. */
  overused: boolean;
}

export interface SentenceLengthBucket {
  /** "1–10", "31+". */
  label: string;
  min: number;
  max: number | null;
  count: number;
}

export type SentimentLabel = 'positive' | 'neutral' | 'negative';

export interface DocumentAnalysis {
  /**
   * True when analysis failed or there was nothing to analyse: readability 7 and 'Content analysis
   * unavailable'.
   */
  fallback: boolean;
  /** Words as the readability formulas count them (letters and digits). */
  wordCount: number;
  sentenceCount: number;
  readability: {
    /** 0–10, higher is easier (Flesch reading ease / 10); the API's readabilityScore. */
    score: number;
    /** 0–100. */
    fleschReadingEase: number;
    gradeLevel: number;
    label: string;
  };
  sentiment: { score: number; comparative: number; label: SentimentLabel };
  sentenceLengths: SentenceLengthBucket[];
  longSentences: LongSentence[];
  passive: PassiveConstruction[];
  repeatedWords: RepeatedWord[];
  suggestions: string[];
}

/** The document position of a character of the block. */
export function positionAt(block: AnalysisBlock, offset: number): number {
  let run = block.runs[0] ?? { offset: 0, pos: 0 };
  for (const next of block.runs) {
    if (next.offset > offset) break;
    run = next;
  }
  return run.pos + (offset - run.offset);
}

export function rangeOf(block: AnalysisBlock, span: Span): AnalysisRange {
  return { from: positionAt(block, span.start), to: positionAt(block, span.end - 1) + 1 };
}

export function readabilityLabel(ease: number): string {
  if (ease >= 90) return 'Very easy';
  if (ease >= 70) return 'Easy';
  if (ease >= 60) return 'Standard';
  if (ease >= 50) return 'Fairly difficult';
  if (ease >= 30) return 'Difficult';
  return 'Very difficult';
}

export function emptyBuckets(): SentenceLengthBucket[] {
  let min = 1;
  const buckets: SentenceLengthBucket[] = SENTENCE_LENGTH_BUCKETS.map((max) => {
    const bucket = { label: `${min}–${max}`, min, max, count: 0 };
    min = max + 1;
    return bucket;
  });
  buckets.push({ label: `${min}+`, min, max: null, count: 0 });
  return buckets;
}

/** What analysis answers when it cannot analyse (readability 7, 'Content analysis unavailable'). */
export function fallbackAnalysis(): DocumentAnalysis {
  const ease = DEFAULT_READABILITY_SCORE * 10;
  return {
    fallback: true,
    wordCount: 0,
    sentenceCount: 0,
    readability: {
      score: DEFAULT_READABILITY_SCORE,
      fleschReadingEase: ease,
      gradeLevel: 0,
      label: readabilityLabel(ease),
    },
    sentiment: { score: 0, comparative: 0, label: 'neutral' },
    sentenceLengths: emptyBuckets(),
    longSentences: [],
    passive: [],
    repeatedWords: [],
    suggestions: [ANALYSIS_FALLBACK_SUGGESTION],
  };
}
