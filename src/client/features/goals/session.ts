/** A writing session's summary: what the toast on leaving the editor says. */

export interface SessionTotals {
  /** The writer's own net words (collaborators' changes left out). */
  words: number;
  durationMs: number;
}

/** The toast's line, or null for a session without words of the writer's own (reading, or only looking). */
export function sessionSummary({ words, durationMs }: SessionTotals): string | null {
  if (words === 0) return null;
  const minutes = Math.max(1, Math.round(durationMs / 60_000));
  const pace = Math.round(words / (durationMs / 60_000 || 1));
  const sign = words > 0 ? '+' : '';
  const time = minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
  return `${sign}${words.toLocaleString()} words in ${time} · ${Math.max(0, pace).toLocaleString()} words a minute`;
}
