import { countWords } from '../analysis/text';

/**
 * The arithmetic of writing goals (docs/goals.md), shared by the server (which counts words per writer) and the
 * Goals popover (which shows the pace): local days in the writer's time zone, the daily target, the streak.
 * Days are ISO dates (`2026-03-02`) so they compare and sort as strings.
 */

/** Net words a day needs for the streak (docs/goals.md). */
export const STREAK_MIN_WORDS = 100;
/** Days the history chart shows, today included. */
const HISTORY_DAYS = 30;
/** How far back the streak is followed; a longer streak shows as this many days. */
export const STREAK_LOOKBACK_DAYS = 366;
/**
 * Words written are kept per quarter hour: every time zone's offset is a whole number of quarter hours, so the
 * buckets add up to exact local days in any zone.
 */
export const WORDS_BUCKET_MS = 15 * 60_000;
/** The largest word target a document can take. */
export const MAX_TARGET_WORDS = 10_000_000;
/** Documents a folder's word count reads at most (a folder's books, chapters and scenes). */
export const MAX_FOLDER_GOAL_DOCUMENTS = 2_000;
/** The zone used when a request names none (or one this runtime does not know). */
export const DEFAULT_TIME_ZONE = 'UTC';

const DAY_MS = 86_400_000;
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Whether `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The date in `zone` at `instant`, as `YYYY-MM-DD`. */
export function localDay(instant: Date | number, zone: string): string {
  let format = dayFormats.get(zone);
  if (!format) {
    // en-CA writes dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(zone, format);
  }
  return format.format(instant);
}

/** The day `count` days after `day` (before, when negative). */
export function addDays(day: string, count: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + count * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, counting both (1 when they are the same day, 0 or less when `to` is earlier). */
export function daysInclusive(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/**
 * Words a day still needed to reach `target` by `deadline`: what is left, spread over the days left including
 * today, rounded up. Zero once the target is reached; null without a deadline or when the deadline has passed.
 */
export function dailyTarget(
  target: number,
  words: number,
  today: string,
  deadline: string | null,
): number | null {
  if (!deadline) return null;
  const daysLeft = daysInclusive(today, deadline);
  if (daysLeft <= 0) return null;
  return Math.max(0, Math.ceil((target - words) / daysLeft));
}

/** Adds up words written per bucket (start instants) into words per local day in `zone`. */
export function wordsPerDay(
  buckets: readonly { start: Date; words: number }[],
  zone: string,
): Map<string, number> {
  const days = new Map<string, number>();
  for (const bucket of buckets) {
    const day = localDay(bucket.start, zone);
    days.set(day, (days.get(day) ?? 0) + bucket.words);
  }
  return days;
}

/**
 * Consecutive days, ending today, with at least `minWords` net words. Today not reached yet does not break it:
 * the streak then ends yesterday (the day is not over).
 */
export function streakDays(
  perDay: ReadonlyMap<string, number>,
  today: string,
  minWords = STREAK_MIN_WORDS,
  lookback = STREAK_LOOKBACK_DAYS,
): number {
  const met = (day: string) => (perDay.get(day) ?? 0) >= minWords;
  let day = met(today) ? today : addDays(today, -1);
  let streak = 0;
  while (streak < lookback && met(day)) {
    streak += 1;
    day = addDays(day, -1);
  }
  return streak;
}

/** The last `count` days ending today, oldest first, with their words (0 for a day without any). */
export function dayHistory(
  perDay: ReadonlyMap<string, number>,
  today: string,
  count = HISTORY_DAYS,
): { day: string; words: number }[] {
  return Array.from({ length: count }, (_, i) => {
    const day = addDays(today, i - count + 1);
    return { day, words: perDay.get(day) ?? 0 };
  });
}

interface ContentNode {
  type?: string;
  text?: string;
  content?: readonly ContentNode[];
}

/** The text of a rich-text tree, blocks on their own lines (what words are counted in). */
function plainText(node: ContentNode, out: string[]): void {
  if (typeof node.text === 'string') out.push(node.text);
  if (node.type === 'hardBreak') out.push('\n');
  for (const child of node.content ?? []) plainText(child, out);
  if (node.content) out.push('\n');
}

/** Words in a rich-text document, by the product's one word counter (shared/analysis). */
export function contentWordCount(content: unknown): number {
  if (!content || typeof content !== 'object') return 0;
  const out: string[] = [];
  plainText(content as ContentNode, out);
  return countWords(out.join(''));
}
