import type { Span } from './text';

/**
 * Passive voice, found by pattern (no parser): a form of "to be", up to two adverbs ("was quickly written",
 * "is not often seen"), then a past participle — a regular "-ed" form or a common irregular one. "by …" is
 * not required ("The report was written last week."). Adjectives that look like participles ("tired",
 * "interested") and "-ed" words that are not verbs ("hundred", "bed") are left out.
 */

const BE = "am|is|are|was|were|be|been|being|isn't|aren't|wasn't|weren't|isn’t|aren’t|wasn’t|weren’t";

const ADVERB =
  'not|never|also|often|always|just|already|still|then|usually|sometimes|rarely|soon|all|\\p{L}+ly';

const IRREGULAR_PARTICIPLES = [
  'arisen',
  'awoken',
  'beaten',
  'begun',
  'bent',
  'bitten',
  'blown',
  'born',
  'borne',
  'bought',
  'bound',
  'broken',
  'brought',
  'built',
  'burnt',
  'caught',
  'chosen',
  'cut',
  'dealt',
  'done',
  'drawn',
  'driven',
  'eaten',
  'fallen',
  'fed',
  'felt',
  'fought',
  'forbidden',
  'forgiven',
  'forgotten',
  'found',
  'frozen',
  'given',
  'grown',
  'heard',
  'held',
  'hidden',
  'hit',
  'hung',
  'hurt',
  'kept',
  'known',
  'laid',
  'led',
  'left',
  'lent',
  'lost',
  'made',
  'meant',
  'met',
  'mistaken',
  'overcome',
  'overtaken',
  'paid',
  'proven',
  'put',
  'ridden',
  'rung',
  'said',
  'seen',
  'sent',
  'set',
  'shaken',
  'shot',
  'shown',
  'shut',
  'sold',
  'sought',
  'spent',
  'split',
  'spoken',
  'spread',
  'stolen',
  'struck',
  'stuck',
  'sung',
  'sunk',
  'sworn',
  'swept',
  'taken',
  'taught',
  'thought',
  'thrown',
  'told',
  'torn',
  'undertaken',
  'understood',
  'withdrawn',
  'won',
  'worn',
  'written',
];

/** "-ed" words that are not participles, and participles used as adjectives of feeling or state. */
const NOT_PASSIVE = new Set([
  'bed',
  'bleed',
  'breed',
  'feed',
  'hundred',
  'kindred',
  'naked',
  'need',
  'red',
  'sacred',
  'seed',
  'shed',
  'speed',
  'wicked',
  'ashamed',
  'bored',
  'concerned',
  'excited',
  'interested',
  'pleased',
  'scared',
  'supposed',
  'surprised',
  'talented',
  'tired',
  'worried',
]);

const PASSIVE = new RegExp(
  `(?<![\\p{L}'’])(?:${BE})\\s+(?:(?:${ADVERB})\\s+){0,2}(\\p{L}+ed|${IRREGULAR_PARTICIPLES.join('|')})(?![\\p{L}'’-])`,
  'giu',
);

export function findPassives(text: string): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(PASSIVE)) {
    const participle = match[1]!.toLowerCase();
    if (NOT_PASSIVE.has(participle)) continue;
    spans.push({ start: match.index, end: match.index + match[0].length });
  }
  return spans;
}
