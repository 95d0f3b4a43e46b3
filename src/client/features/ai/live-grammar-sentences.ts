import { withoutOverlaps } from '@shared/ai/grammar-lints';
import type { GrammarChange } from '@shared/schemas/ai';

/**
 * Sentence-level memo for the live checks (used in grammar.worker.ts). Typing re-checks the edited paragraph
 * on every keystroke, but only one of its sentences changed: the others' issues are remembered by their text,
 * so a keystroke costs one sentence's lint (~5–10 ms) instead of the paragraph's (~30 ms for 100 words,
 * ~100–250 ms for 600). Harper's lints do not cross sentence boundaries in practice (a paragraph linted whole
 * and sentence by sentence gave the same lints on our samples); the sentences that do need linting are linted
 * together, as one stretch of the paragraph, so the first pass over a document costs what it did.
 */

const MAX_SENTENCES = 20_000;

interface Segment {
  text: string;
  index: number;
}

export function createSentenceMemo(
  lint: (text: string) => Promise<GrammarChange[]>,
  { maxSentences = MAX_SENTENCES }: { maxSentences?: number } = {},
): (text: string) => Promise<GrammarChange[]> {
  // Without Intl.Segmenter (Firefox before 125) every check lints the whole paragraph.
  if (typeof Intl.Segmenter !== 'function') return lint;
  const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
  // Insertion order is recency order (a hit is moved to the end), so the first key is the one to evict.
  const memo = new Map<string, GrammarChange[]>();
  const remember = (sentence: string, changes: GrammarChange[]) => {
    memo.delete(sentence);
    memo.set(sentence, changes);
    if (memo.size > maxSentences) memo.delete(memo.keys().next().value!);
  };
  const recall = (sentence: string) => {
    const changes = memo.get(sentence);
    if (changes) remember(sentence, changes);
    return changes;
  };
  const shifted = (changes: GrammarChange[], by: number) =>
    changes.map((change) => ({ ...change, offset: change.offset + by }));

  return async (text) => {
    const segments: Segment[] = [...segmenter.segment(text)].map((s) => ({
      text: s.segment,
      index: s.index,
    }));
    const changes: GrammarChange[] = [];
    let i = 0;
    while (i < segments.length) {
      const known = recall(segments[i]!.text);
      if (known) {
        changes.push(...shifted(known, segments[i]!.index));
        i += 1;
        continue;
      }
      // The run of sentences not seen before, linted as one stretch of the text.
      let j = i;
      while (j < segments.length && !memo.has(segments[j]!.text)) j += 1;
      const start = segments[i]!.index;
      const end = j < segments.length ? segments[j]!.index : text.length;
      const found = shifted(await lint(text.slice(start, end)), start);
      changes.push(...found);
      for (let k = i; k < j; k += 1) {
        const segment = segments[k]!;
        const segmentEnd = segment.index + segment.text.length;
        const inside = found.filter((c) => c.offset >= segment.index && c.offset + c.length <= segmentEnd);
        remember(segment.text, shifted(inside, -segment.index));
      }
      i = j;
    }
    return withoutOverlaps(changes);
  };
}
