import { takeCheckpoint } from './api';

/** How long an AI change or an import waits for its version before it is applied anyway. */
const CHECKPOINT_TIMEOUT_MS = 3_000;

/**
 * Keeps the document's current state as an `ai` version before an AI answer is applied in the editor. The
 * server snapshots its live copy, which already holds every edit this browser sent, so the AI's own change
 * (applied after this resolves) is never part of it. If the server cannot be reached in time the change is
 * applied anyway: the writer asked for it, and the editor's undo still has the previous text.
 */
export function keepVersionBeforeAiChange(documentId: string): Promise<void> {
  return keepVersionBefore(documentId, 'ai');
}

/** The same before a file dropped onto the document is inserted into it (an import over the document). */
export function keepVersionBeforeImport(documentId: string): Promise<void> {
  return keepVersionBefore(documentId, 'import');
}

async function keepVersionBefore(documentId: string, reason: 'ai' | 'import'): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      takeCheckpoint(documentId, reason),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`version before the ${reason} change timed out`)),
          CHECKPOINT_TIMEOUT_MS,
        );
      }),
    ]);
  } catch (error) {
    console.warn(`No version was kept before the ${reason} change`, error);
  } finally {
    clearTimeout(timer);
  }
}
