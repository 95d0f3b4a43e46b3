/**
 * The steps of opening a document, as User Timing marks ("quillwright:<step>"): DevTools' performance panel
 * shows them on its timeline, and `bench:editor --timeline` prints them with the page's requests, so where an
 * opening spends its time can be read without a profiler slowing the page.
 */
export type OpeningStep =
  'session-started' | 'offline-copy-read' | 'server-state-applied' | 'first-sync' | 'editor-created';

export function markOpening(step: OpeningStep): void {
  try {
    performance.mark(`quillwright:${step}`);
  } catch {
    // No User Timing (an old browser or a test environment): nothing to mark.
  }
}
