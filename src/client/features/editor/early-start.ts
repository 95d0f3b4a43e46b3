/**
 * What the editor's route starts as it matches, before the editor's code is in (the server's state over HTTP,
 * server-state.ts; the browser's copy from IndexedDB, offline-copy-store.ts), is kept for the session that opens
 * the same document within this time, and started once per document within it however often the route renders.
 */
const EARLY_START_FRESH_MS = 10_000;

export interface EarlyStart {
  documentId: string;
  /** Date.now() when it was started. */
  at: number;
}

/** Whether `started` is this document's and recent enough to be used (or not to be started again). */
export function isFreshFor(started: EarlyStart, documentId: string): boolean {
  return started.documentId === documentId && Date.now() - started.at < EARLY_START_FRESH_MS;
}
