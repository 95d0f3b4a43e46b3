import { differenceInMonths } from 'date-fns/differenceInMonths';

const MINUTES_IN_DAY = 1_440;
const MINUTES_IN_ALMOST_TWO_DAYS = 2_520;
const MINUTES_IN_MONTH = 43_200;

/** How far the local clock is from UTC at `date` (changes with daylight saving time). */
function timezoneOffsetMs(date: Date): number {
  const utc = new Date(
    Date.UTC(
      date.getFullYear(),
      date.getMonth(),
      date.getDate(),
      date.getHours(),
      date.getMinutes(),
      date.getSeconds(),
      date.getMilliseconds(),
    ),
  );
  utc.setUTCFullYear(date.getFullYear());
  return date.getTime() - utc.getTime();
}

function count(n: number, one: string, other: string): string {
  return n === 1 ? one : other.replace('#', String(n));
}

/** The distance between two moments in words, rounded as date-fns' formatDistance rounds it. */
function distanceInWords(earlier: Date, later: Date): string {
  const seconds = Math.trunc((later.getTime() - earlier.getTime()) / 1000);
  const offsetSeconds = (timezoneOffsetMs(later) - timezoneOffsetMs(earlier)) / 1000;
  const minutes = Math.round((seconds - offsetSeconds) / 60);
  if (minutes < 2) return minutes === 0 ? 'less than a minute' : count(minutes, '1 minute', '# minutes');
  if (minutes < 45) return count(minutes, '1 minute', '# minutes');
  if (minutes < 90) return 'about 1 hour';
  if (minutes < MINUTES_IN_DAY) return count(Math.round(minutes / 60), 'about 1 hour', 'about # hours');
  if (minutes < MINUTES_IN_ALMOST_TWO_DAYS) return '1 day';
  if (minutes < MINUTES_IN_MONTH) return count(Math.round(minutes / MINUTES_IN_DAY), '1 day', '# days');
  if (minutes < MINUTES_IN_MONTH * 2) {
    return count(Math.round(minutes / MINUTES_IN_MONTH), 'about 1 month', 'about # months');
  }
  const months = differenceInMonths(later, earlier);
  if (months < 12) return count(Math.round(minutes / MINUTES_IN_MONTH), '1 month', '# months');
  const years = Math.trunc(months / 12);
  const monthsIntoYear = months % 12;
  if (monthsIntoYear < 3) return count(years, 'about 1 year', 'about # years');
  if (monthsIntoYear < 9) return count(years, 'over 1 year', 'over # years');
  return count(years + 1, 'almost 1 year', 'almost # years');
}

/**
 * "5 minutes ago", "in about 2 hours": the words of date-fns' `formatDistanceToNow(date, { addSuffix: true })` in
 * English, without the locale tables it brings along (the editor's header shows it on first paint).
 */
export function timeAgo(date: Date, now: Date = new Date()): string {
  if (date.getTime() > now.getTime()) return `in ${distanceInWords(now, date)}`;
  return `${distanceInWords(date, now)} ago`;
}
