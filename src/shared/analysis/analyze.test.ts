import { describe, expect, it } from 'vitest';
import { ANALYSIS_FALLBACK_SUGGESTION, DEFAULT_READABILITY_SCORE, LONG_SENTENCE_WORDS } from '../constants';
import {
  analyzeBlocks,
  createBlockAnalyzer,
  fallbackAnalysis,
  plainTextBlocks,
  positionAt,
  safeAnalyze,
  type AnalysisBlock,
} from './index';
import { findPassives } from './passive';
import { sentenceSpans } from './text';

/** A paragraph at document position `pos` (its text starts there). */
const block = (text: string, pos = 1): AnalysisBlock => ({ text, runs: [{ offset: 0, pos }] });

const LONG =
  'When the committee finally met on Tuesday afternoon after weeks of delay the members argued about the ' +
  'budget and the schedule and the venue for so long that nobody remembered what the original question had ' +
  'been about at all.';

describe('sentences', () => {
  it('ends sentences at terminal punctuation and line breaks, not after abbreviations or initials', () => {
    const text = 'Dr. Smith met J. R. Tolkien. He said “Hello!” Then he left\nA new line';
    const spans = sentenceSpans(text).map((s) => text.slice(s.start, s.end));
    expect(spans).toEqual(['Dr. Smith met J. R. Tolkien.', 'He said “Hello!”', 'Then he left', 'A new line']);
  });
});

describe('long sentences', () => {
  it(`flags a sentence of more than ${LONG_SENTENCE_WORDS} words with its document range`, () => {
    const intro = 'This is short. ';
    const result = analyzeBlocks([block(intro + LONG + ' Short again.', 10)]);
    expect(result.longSentences).toHaveLength(1);
    const [long] = result.longSentences;
    expect(long!.words).toBe(39);
    expect(long!.from).toBe(10 + intro.length);
    expect(long!.to).toBe(10 + intro.length + LONG.length);
    expect(long!.text).toBe(LONG);
    expect(result.suggestions[0]).toBe(
      'Split the 39-word sentence beginning “When the committee finally met on…”.',
    );
    expect(result.sentenceLengths.map((b) => [b.label, b.count])).toEqual([
      ['1–10', 2],
      ['11–20', 0],
      ['21–30', 0],
      ['31+', 1],
    ]);
  });

  it('a 35-word sentence is flagged, a 30-word one is not', () => {
    const words = (n: number) => `${Array.from({ length: n }, (_, i) => `word${i}`).join(' ')}.`;
    expect(analyzeBlocks([block(words(35))]).longSentences[0]?.words).toBe(35);
    expect(analyzeBlocks([block(words(30))]).longSentences).toEqual([]);
  });

  it('maps offsets through runs (text left out, line breaks) to document positions', () => {
    // "Hello world" where "world" starts 5 positions later in the document (a deleted word between).
    const b: AnalysisBlock = {
      text: 'Hello world',
      runs: [
        { offset: 0, pos: 1 },
        { offset: 6, pos: 12 },
      ],
    };
    expect(positionAt(b, 0)).toBe(1);
    expect(positionAt(b, 5)).toBe(6);
    expect(positionAt(b, 6)).toBe(12);
    expect(positionAt(b, 10)).toBe(16);
  });
});

describe('passive voice', () => {
  it('finds a passive construction with its range', () => {
    const text = 'Yesterday the letter was written by my sister.';
    const result = analyzeBlocks([block(text, 1)]);
    expect(result.passive).toEqual([
      { from: 1 + text.indexOf('was'), to: 1 + text.indexOf(' by'), text: 'was written' },
    ]);
    expect(result.suggestions).toContain(
      'Rewrite the passive “was written” in active voice: say who does it.',
    );
  });

  it('knows irregular participles, allows adverbs between, and needs no "by"', () => {
    const found = (text: string) => findPassives(text).map((s) => text.slice(s.start, s.end));
    expect(found('The decision was made. Mistakes were quickly taken care of.')).toEqual([
      'was made',
      'were quickly taken',
    ]);
    expect(found('It is not often seen, and it has been shown twice; the bridge is being built.')).toEqual([
      'is not often seen',
      'been shown',
      'being built',
    ]);
    expect(found('The results are analysed and the data were collected.')).toEqual([
      'are analysed',
      'were collected',
    ]);
  });

  it('leaves active sentences and participle-like adjectives alone', () => {
    expect(findPassives('I was tired. She is interested. They need a bed. We wrote the report.')).toEqual([]);
  });

  it('counts several constructions in one suggestion', () => {
    const result = analyzeBlocks([
      block('The cake was eaten. The door was shut. The song was sung by the choir.'),
    ]);
    expect(result.passive).toHaveLength(3);
    expect(result.suggestions).toContain(
      'Rewrite 3 passive constructions in active voice (such as “was eaten”).',
    );
  });
});

describe('repeated words', () => {
  it('reports content words used often and close repeats, never stopwords', () => {
    const result = analyzeBlocks([
      block('The garden is big. The garden is green and the garden is old.'),
      block('The report says the report is late, and the report is long.'),
    ]);
    const words = result.repeatedWords.map((w) => w.word);
    expect(words).toContain('garden');
    expect(words).toContain('report');
    for (const stopword of ['the', 'is', 'and']) expect(words).not.toContain(stopword);
    const report = result.repeatedWords.find((w) => w.word === 'report')!;
    expect(report).toMatchObject({ count: 3, closeRepeats: 2, overused: true });
  });

  it('a word used twice far apart is not reported', () => {
    const filler = 'apples bananas cherries dates elderberries figs grapes honeydew kiwis lemons mangoes';
    expect(analyzeBlocks([block(`Quiet ${filler} quiet.`)]).repeatedWords).toEqual([]);
    expect(analyzeBlocks([block('Quiet nights, quiet days.')]).repeatedWords).toEqual([
      { word: 'quiet', count: 2, closeRepeats: 1, overused: false },
    ]);
  });
});

describe('readability and sentiment', () => {
  it('computes Flesch reading ease and grade on a known text', () => {
    // 16 words, 3 sentences, 21 syllables: 206.835 − 1.015 × 16/3 − 84.6 × 21/16 = 90.38; grade 1.98.
    const result = analyzeBlocks([
      block('The cat sat on the mat. It was a happy cat. Everyone loved the wonderful cat.'),
    ]);
    expect(result.readability.fleschReadingEase).toBeCloseTo(90.4, 0);
    expect(result.readability.gradeLevel).toBeCloseTo(2, 0);
    expect(result.readability.label).toBe('Very easy');
    expect(result.sentiment.label).toBe('positive');
  });

  it('hard text reads as difficult and negative text as negative', () => {
    const result = analyzeBlocks([
      block(
        'Notwithstanding considerable organisational complexities, the administrative committee implemented ' +
          'comprehensive procedural modifications. The consequences were terrible, horrible and awful.',
      ),
    ]);
    expect(result.readability.fleschReadingEase).toBeLessThan(30);
    expect(result.sentiment.label).toBe('negative');
  });
});

describe('fallback', () => {
  it('an empty document gives the fallback answer: readability 7, "Content analysis unavailable"', () => {
    for (const blocks of [[], [block('')], [block('   ')]]) {
      const result = analyzeBlocks(blocks);
      expect(result.fallback).toBe(true);
      expect(result.readability.score).toBe(DEFAULT_READABILITY_SCORE);
      expect(result.suggestions).toEqual([ANALYSIS_FALLBACK_SUGGESTION]);
    }
  });

  it('an analysis that throws gives the fallback', () => {
    const result = safeAnalyze(() => {
      throw new Error('broken');
    }, [block('Some text.')]);
    expect(result).toEqual(fallbackAnalysis());
  });
});

describe('memo and plain text', () => {
  it('the memoised analyser answers like the plain one, and follows edits', () => {
    const analyze = createBlockAnalyzer();
    const blocks = [block('The letter was written.'), block(LONG, 40)];
    expect(analyze(blocks)).toEqual(analyzeBlocks(blocks));
    const edited = [block('We wrote the letter.'), block(LONG, 40)];
    expect(analyze(edited)).toEqual(analyzeBlocks(edited));
    expect(analyze(edited).passive).toEqual([]);
  });

  it('plain text splits into paragraphs at blank lines, positions being offsets', () => {
    const text = 'First one.\n\nSecond one.';
    expect(plainTextBlocks(text)).toEqual([
      { text: 'First one.', runs: [{ offset: 0, pos: 0 }] },
      { text: 'Second one.', runs: [{ offset: 0, pos: 12 }] },
    ]);
  });
});
