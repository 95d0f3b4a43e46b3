/** A writing session's summary: what the toast on leaving the editor says. */

/** Sessions shorter than this, with no words written, end without a summary. */
const MIN_SUMMARY_MS = 60_000;

export interface SessionTotals {
  /** The writer's own net words (collaborators' changes left out). */
  words: number;
  durationMs: number;
}

/** The toast's line, or null when the session is too slight to sum up. */
export function sessionSummary({ words, durationMs }: SessionTotals): string | null {
  if (words === 0 && durationMs < MIN_SUMMARY_MS) return null;
  const minutes = Math.max(1, Math.round(durationMs / 60_000));
  const pace = Math.round(words / (durationMs / 60_000 || 1));
  const sign = words > 0 ? '+' : '';
  const time = minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  return `${sign}${words.toLocaleString()} words in ${time} · ${Math.max(0, pace).toLocaleString()} words a minute`;
}
