import { expect, it } from 'vitest';
import { analyzeText, countWords, readingTimeMinutes } from '../../shared/analysis';
import { extractiveSummary } from './summary';

it('counts words on whitespace and reading time as ceil(words / 200), at least 1 when there is text', () => {
  expect(countWords('  one two\nthree\tfour  ')).toBe(4);
  expect(readingTimeMinutes(0)).toBe(0);
  expect(readingTimeMinutes(200)).toBe(1);
  expect(readingTimeMinutes(201)).toBe(2);
});

it('scores an easy, happy text as readable and positive', () => {
  const result = analyzeText('The cat sat on the mat. It was a happy cat. Everyone loved the wonderful cat.');
  expect(result.wordCount).toBe(16);
  expect(result.estimatedReadingTime).toBe(1);
  // 16 words, 3 sentences, 21 syllables: 206.835 − 1.015 × 16/3 − 84.6 × 21/16 = 90.38 → 9.0 on the 0–10 scale;
  // grade 0.39 × 16/3 + 11.8 × 21/16 − 15.59 = 1.98.
  expect(result.analysis.readability.fleschReadingEase).toBe(90.4);
  expect(result.analysis.readability.gradeLevel).toBe(2);
  expect(result.readabilityScore).toBe(9);
  expect(result.analysis.readability.label).toBe('Very easy');
  expect(result.analysis.sentiment).toEqual({ score: 10, comparative: 0.625, label: 'positive' });
  expect(result.analysis.sentenceCount).toBe(3);
  expect(result.suggestions).toEqual(result.analysis.improvements);
});

it('flags long sentences, hard words and a negative tone', () => {
  const long =
    'Notwithstanding the considerable organisational complexities inherent in multinational ' +
    'institutional restructuring, the administrative committee was determined, after deliberation, ' +
    'to implement comprehensive procedural modifications immediately and universally, which was terrible, ' +
    'horrible and awful for everybody involved in the unfortunate process.';
  const result = analyzeText(long);
  expect(result.analysis.sentiment.label).toBe('negative');
  expect(result.readabilityScore).toBeLessThan(3);
  expect(result.suggestions).toContain(
    'Split the 38-word sentence beginning “Notwithstanding the considerable…”.',
  );
  expect(result.suggestions).toContain('Use shorter words and sentences to make the text easier to read.');
});

it('the extractive summary keeps the most central sentences in order', () => {
  const text =
    'Bees pollinate crops. Bees make honey from nectar. The weather was mild. ' +
    'Honey bees live in hives with a queen. Farmers rent bee hives to pollinate crops. Lunch was late. ' +
    'Bees are vital for crops and honey. The bus was blue.';
  const summary = extractiveSummary(text);
  expect(summary).toBe('Bees pollinate crops. Bees are vital for crops and honey.');
});
