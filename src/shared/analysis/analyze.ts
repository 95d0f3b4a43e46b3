import readability from 'text-readability';
import Sentiment from 'sentiment';
import {
  ANALYSIS_NAMED_SENTENCES_MAX,
  ANALYSIS_QUOTE_CHARS,
  DIFFICULT_READING_EASE,
  LONG_SENTENCE_WORDS,
  REPEATED_WORD_MIN_COUNT,
  REPEATED_WORD_MIN_LENGTH,
  REPEATED_WORD_MIN_SHARE,
  REPEATED_WORD_WINDOW,
  REPEATED_WORDS_MAX,
  SENTIMENT_NEUTRAL_BAND,
} from '../constants';
import { findPassives } from './passive';
import { STOPWORDS } from './stopwords';
import {
  emptyBuckets,
  fallbackAnalysis,
  rangeOf,
  readabilityLabel,
  type AnalysisBlock,
  type DocumentAnalysis,
  type LongSentence,
  type PassiveConstruction,
  type RepeatedWord,
  type SentimentLabel,
} from './result';
import { sentenceSpans, wordSpans, type Span } from './text';

/**
 * Offline analysis of a document, block by block (paragraphs, headings, list items): readability (Flesch
 * reading ease and Flesch–Kincaid grade, syllables counted by text-readability), sentiment (AFINN via
 * `sentiment`), sentence lengths, long sentences, passive voice, repeated words and suggestions. Every
 * finding carries its document range, so the editor can highlight it. No provider, no tokens; the server's
 * POST /api/ai/analyze and the editor's Analyze panel run this same code.
 */

/** Plain text as blocks: paragraphs split at blank lines; positions are offsets in the text. */
export function plainTextBlocks(text: string): AnalysisBlock[] {
  const blocks: AnalysisBlock[] = [];
  let offset = 0;
  for (const part of text.split(/(\n[^\S\n]*\n\s*)/)) {
    if (!/\n[^\S\n]*\n/.test(part) && part.trim())
      blocks.push({ text: part, runs: [{ offset: 0, pos: offset }] });
    offset += part.length;
  }
  return blocks;
}

const round = (value: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

// ---------------------------------------------------------------------------------------------------------
// Per block: what one block's text yields, in offsets of that text. Remembered by text, so typing in one
// paragraph of a long document analyses that paragraph again and reuses the others.

interface BlockFacts {
  sentences: (Span & { words: number })[];
  passives: Span[];
  /** Every word's lower-case form (stopwords included: they count for the close-repeat window). */
  words: string[];
  syllables: number;
  sentimentScore: number;
  sentimentTokens: number;
}

const sentimentAnalyzer = new Sentiment();
const syllableMemo = new Map<string, number>();
const SYLLABLE_MEMO_MAX = 50_000;

function syllables(word: string): number {
  let count = syllableMemo.get(word);
  if (count === undefined) {
    count = Math.max(1, readability.syllableCount(word));
    if (syllableMemo.size >= SYLLABLE_MEMO_MAX) syllableMemo.clear();
    syllableMemo.set(word, count);
  }
  return count;
}

function blockFacts(text: string): BlockFacts {
  const sentences: BlockFacts['sentences'] = [];
  const words: string[] = [];
  let syllableTotal = 0;
  for (const sentence of sentenceSpans(text)) {
    const spans = wordSpans(text, sentence.start, sentence.end);
    if (spans.length === 0) continue;
    sentences.push({ ...sentence, words: spans.length });
    for (const span of spans) {
      const word = text.slice(span.start, span.end).toLowerCase().replace(/’/g, "'");
      words.push(word);
      syllableTotal += syllables(word);
    }
  }
  const sentiment = words.length > 0 ? sentimentAnalyzer.analyze(text) : null;
  return {
    sentences,
    passives: findPassives(text),
    words,
    syllables: syllableTotal,
    sentimentScore: sentiment?.score ?? 0,
    sentimentTokens: sentiment?.tokens.filter(Boolean).length ?? 0,
  };
}

export interface BlockAnalyzer {
  (blocks: AnalysisBlock[]): DocumentAnalysis;
}

/**
 * An analyser that remembers each block's facts by its text until a run no longer has that block (a worker or
 * a page keeps one and calls it after every pause in typing).
 */
export function createBlockAnalyzer(): BlockAnalyzer {
  let memo = new Map<string, BlockFacts>();
  return (blocks) => {
    const next = new Map<string, BlockFacts>();
    const facts = blocks.map((block) => {
      let found = next.get(block.text) ?? memo.get(block.text);
      if (!found) found = blockFacts(block.text);
      next.set(block.text, found);
      return found;
    });
    memo = next;
    return combine(blocks, facts);
  };
}

/** One document's analysis, without a memo. */
export function analyzeBlocks(blocks: AnalysisBlock[]): DocumentAnalysis {
  return combine(
    blocks,
    blocks.map((block) => blockFacts(block.text)),
  );
}

const quote = (text: string) => {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= ANALYSIS_QUOTE_CHARS) return clean;
  const cut = clean.slice(0, ANALYSIS_QUOTE_CHARS);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > ANALYSIS_QUOTE_CHARS / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function combine(blocks: AnalysisBlock[], facts: BlockFacts[]): DocumentAnalysis {
  let wordCount = 0;
  let sentenceCount = 0;
  let syllableTotal = 0;
  let sentimentScore = 0;
  let sentimentTokens = 0;
  const buckets = emptyBuckets();
  const longSentences: LongSentence[] = [];
  const passive: PassiveConstruction[] = [];
  const counts = new Map<string, { count: number; closeRepeats: number }>();

  facts.forEach((fact, index) => {
    const block = blocks[index]!;
    wordCount += fact.words.length;
    sentenceCount += fact.sentences.length;
    syllableTotal += fact.syllables;
    sentimentScore += fact.sentimentScore;
    sentimentTokens += fact.sentimentTokens;
    for (const sentence of fact.sentences) {
      const bucket = buckets.find((b) => b.max === null || sentence.words <= b.max)!;
      bucket.count += 1;
      if (sentence.words > LONG_SENTENCE_WORDS) {
        longSentences.push({
          ...rangeOf(block, sentence),
          words: sentence.words,
          text: block.text.slice(sentence.start, sentence.end),
        });
      }
    }
    for (const span of fact.passives) {
      passive.push({ ...rangeOf(block, span), text: block.text.slice(span.start, span.end) });
    }
    const lastSeen = new Map<string, number>();
    fact.words.forEach((word, at) => {
      if (word.length < REPEATED_WORD_MIN_LENGTH || STOPWORDS.has(word) || /^\d+$/.test(word)) return;
      const entry = counts.get(word) ?? { count: 0, closeRepeats: 0 };
      entry.count += 1;
      const previous = lastSeen.get(word);
      if (previous !== undefined && at - previous <= REPEATED_WORD_WINDOW) entry.closeRepeats += 1;
      lastSeen.set(word, at);
      counts.set(word, entry);
    });
  });

  if (wordCount === 0 || sentenceCount === 0) return fallbackAnalysis();

  const wordsPerSentence = wordCount / sentenceCount;
  const syllablesPerWord = syllableTotal / wordCount;
  const ease = 206.835 - 1.015 * wordsPerSentence - 84.6 * syllablesPerWord;
  const grade = 0.39 * wordsPerSentence + 11.8 * syllablesPerWord - 15.59;
  const comparative = sentimentTokens > 0 ? round(sentimentScore / sentimentTokens, 3) : 0;
  const sentimentLabel: SentimentLabel =
    comparative > SENTIMENT_NEUTRAL_BAND
      ? 'positive'
      : comparative < -SENTIMENT_NEUTRAL_BAND
        ? 'negative'
        : 'neutral';

  const overuseFrom = Math.max(REPEATED_WORD_MIN_COUNT, Math.ceil(wordCount * REPEATED_WORD_MIN_SHARE));
  const repeatedWords: RepeatedWord[] = [...counts]
    .map(([word, { count, closeRepeats }]) => ({ word, count, closeRepeats, overused: count >= overuseFrom }))
    .filter((entry) => entry.overused || entry.closeRepeats > 0)
    .sort((a, b) => b.closeRepeats + b.count - (a.closeRepeats + a.count) || a.word.localeCompare(b.word))
    .slice(0, REPEATED_WORDS_MAX);

  const suggestions: string[] = [];
  for (const sentence of longSentences.slice(0, ANALYSIS_NAMED_SENTENCES_MAX)) {
    suggestions.push(`Split the ${sentence.words}-word sentence beginning “${quote(sentence.text)}”.`);
  }
  const unnamed = longSentences.length - ANALYSIS_NAMED_SENTENCES_MAX;
  if (unnamed > 0) {
    suggestions.push(
      `Split ${plural(unnamed, 'more long sentence')} (over ${LONG_SENTENCE_WORDS} words) into shorter ones.`,
    );
  }
  if (passive.length > 0) {
    const example = passive[0]!.text.replace(/\s+/g, ' ');
    suggestions.push(
      passive.length === 1
        ? `Rewrite the passive “${example}” in active voice: say who does it.`
        : `Rewrite ${passive.length} passive constructions in active voice (such as “${example}”).`,
    );
  }
  const closeRepeated = repeatedWords.filter((e) => e.closeRepeats > 0).slice(0, 2);
  for (const entry of closeRepeated) {
    const times = entry.closeRepeats === 1 ? '' : ` (${entry.closeRepeats} times)`;
    suggestions.push(`“${entry.word}” comes back within a few words${times}: use a synonym or a pronoun.`);
  }
  const overused = repeatedWords.find((e) => e.overused && !closeRepeated.includes(e));
  if (overused) suggestions.push(`“${overused.word}” is used ${overused.count} times: vary it or cut some.`);
  if (ease < DIFFICULT_READING_EASE)
    suggestions.push('Use shorter words and sentences to make the text easier to read.');
  if (sentimentLabel === 'negative')
    suggestions.push('The tone reads as negative; check that this is intended.');
  if (suggestions.length === 0) suggestions.push('The text reads well. No major issues found.');

  return {
    fallback: false,
    wordCount,
    sentenceCount,
    readability: {
      score: round(Math.min(100, Math.max(0, ease)) / 10),
      fleschReadingEase: round(ease),
      gradeLevel: Math.max(0, round(grade)),
      label: readabilityLabel(ease),
    },
    sentiment: { score: sentimentScore, comparative, label: sentimentLabel },
    sentenceLengths: buckets,
    longSentences,
    passive,
    repeatedWords,
    suggestions,
  };
}

/**
 * Analysis that never throws: the fallback answer (readability 7, 'Content analysis unavailable') when it
 * does.
 */
export function safeAnalyze(analyze: BlockAnalyzer, blocks: AnalysisBlock[]): DocumentAnalysis {
  try {
    return analyze(blocks);
  } catch {
    return fallbackAnalysis();
  }
}
