import {
  OFFLINE_COPY_JOURNAL_SUFFIX,
  OFFLINE_COPY_PREFIX,
  OFFLINE_COPY_STORED_SUFFIX,
} from '@shared/editor-early-request';

/**
 * Where a document's offline copy lives in this browser (offline-copy.ts), without its code: the editor's route
 * reads it before the editor's code is in (routes.tsx).
 */

/** The IndexedDB database of the copy (offline-copy-store.ts). */
export const offlineCopyName = (documentId: string) => `${OFFLINE_COPY_PREFIX}${documentId}`;

/** localStorage: updates not yet confirmed in IndexedDB, merged into one (see OfflineCopy's journal). */
export const offlineJournalKey = (name: string) => `${name}${OFFLINE_COPY_JOURNAL_SUFFIX}`;

/** localStorage: the server's state vector when the copy last synced with it (see OfflineCopy.belongsTo). */
export const offlineServerKey = (name: string) => `${name}:server`;

/**
 * localStorage: set once IndexedDB has confirmed a write of the server's document into the copy. Having synced
 * with the server is not enough: the server's state is written after a batch window and kept out of the journal,
 * so a page closed right after its first sync can leave a copy without it.
 */
export const offlineStoredKey = (name: string) => `${name}${OFFLINE_COPY_STORED_SUFFIX}`;

/**
 * Whether this browser keeps a copy of the document: IndexedDB holds the server's document, or the journal holds
 * changes not yet in IndexedDB. Read synchronously, from localStorage.
 */
export function hasOfflineCopy(documentId: string): boolean {
  const name = offlineCopyName(documentId);
  try {
    return (
      window.localStorage.getItem(offlineStoredKey(name)) !== null ||
      window.localStorage.getItem(offlineJournalKey(name)) !== null
    );
  } catch {
    return false;
  }
}
