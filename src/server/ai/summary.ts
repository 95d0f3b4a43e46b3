import { splitSentences } from '../../shared/analysis/text';

/**
 * Extractive summary for when no AI provider is configured: scores sentences by the frequency of their
 * content words (classic Luhn-style), keeps the best ~quarter (1–5 sentences) in their original order.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by for from has have he her his i in is it its of on or our she so that the ' +
    'their them they this to was we were what when which who will with you your not no can could would should do ' +
    'does did than then there these those into about also more most such only own same very just over any all'
  ).split(' '),
);

const MAX_SENTENCES = 5;

function words(sentence: string): string[] {
  return (sentence.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).filter((w) => !STOP_WORDS.has(w));
}

export function extractiveSummary(text: string): string {
  const sentences = splitSentences(text);
  if (sentences.length <= 2) return sentences.join(' ');
  const frequency = new Map<string, number>();
  for (const sentence of sentences)
    for (const w of words(sentence)) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const scored = sentences.map((sentence, index) => {
    const ws = words(sentence);
    const total = ws.reduce((sum, w) => sum + (frequency.get(w) ?? 0), 0);
    // Normalise by length so long sentences don't win by size alone; the opening sentence gets a small bonus.
    const score = ws.length === 0 ? 0 : total / Math.sqrt(ws.length) + (index === 0 ? 0.5 : 0);
    return { sentence, index, score };
  });
  const keep = Math.min(MAX_SENTENCES, Math.max(1, Math.round(sentences.length / 4)));
  return scored
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, keep)
    .sort((a, b) => a.index - b.index)
    .map((s) => s.sentence)
    .join(' ');
}
