import { type EarlyStart, isFreshFor } from './early-start';
import { hasOfflineCopy, offlineCopyName } from './offline-copy-keys';

/**
 * How a document's offline copy is laid out in IndexedDB: one database per document (offlineCopyName), its Yjs
 * updates in the auto-numbered store "updates" (and an unused "custom" store). It is the layout of y-indexeddb,
 * which kept the copy in earlier versions, so copies written then open unchanged. This module has no Yjs in it:
 * the editor's route reads a copy with it before the editor's code is in.
 */
export const UPDATES_STORE = 'updates';
const CUSTOM_STORE = 'custom';

/** The updates of a copy from some key on, with what is needed to read or trim it further. */
export interface StoredUpdates {
  updates: Uint8Array[];
  /** The last key in the store (-1 when it is empty): later reads start after it. */
  lastKey: number;
  /** How many entries the store holds. */
  count: number;
}

/** The result of an IndexedDB request. */
export function requestResult<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = (event) => {
      event.preventDefault();
      reject(request.error ?? new Error('IndexedDB request failed'));
    };
  });
}

/** Opens a copy's database, creating it (and its stores) if this browser has none yet. */
export function openCopy(name: string): Promise<IDBDatabase> {
  const request = indexedDB.open(name);
  request.onupgradeneeded = () => {
    const db = request.result;
    if (!db.objectStoreNames.contains(UPDATES_STORE))
      db.createObjectStore(UPDATES_STORE, { autoIncrement: true });
    if (!db.objectStoreNames.contains(CUSTOM_STORE)) db.createObjectStore(CUSTOM_STORE);
  };
  return requestResult(request);
}

/** Opens a copy's database if it exists; never creates one. Null when there is none or it cannot be opened. */
function openExistingCopy(name: string): Promise<IDBDatabase | null> {
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(name);
    } catch {
      resolve(null);
      return;
    }
    // No such database: the upgrade that would create it is cancelled, so nothing is left behind.
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = (event) => {
      event.preventDefault();
      resolve(null);
    };
    request.onsuccess = () => {
      const db = request.result;
      // A copy being deleted (a session starting afresh) is not held up by this reader.
      db.onversionchange = () => db.close();
      resolve(db);
    };
  });
}

/**
 * Reads every update stored under a key of `fromKey` or more, from `store` (by default in a read-only
 * transaction of its own; the trim reads inside its read-write one).
 */
export async function readUpdates(from: IDBDatabase | IDBObjectStore, fromKey = 0): Promise<StoredUpdates> {
  const store =
    from instanceof IDBObjectStore
      ? from
      : from.transaction(UPDATES_STORE, 'readonly').objectStore(UPDATES_STORE);
  const [updates, last, count] = await Promise.all([
    requestResult(store.getAll(IDBKeyRange.lowerBound(fromKey))) as Promise<Uint8Array[]>,
    requestResult(store.openKeyCursor(null, 'prev')),
    requestResult(store.count()),
  ]);
  return { updates, lastKey: typeof last?.key === 'number' ? last.key : -1, count };
}

/** A whole copy read as the editor's route matched (readCopyEarly), for the session that opens it. */
export interface EarlyCopyRead {
  read: Promise<StoredUpdates | null>;
  /** What was read, once it is in (undefined until then): a session starting later uses it synchronously. */
  value: StoredUpdates | null | undefined;
}

let early: (EarlyCopyRead & EarlyStart & { taken: boolean }) | null = null;

async function readWholeCopy(documentId: string): Promise<StoredUpdates | null> {
  const db = await openExistingCopy(offlineCopyName(documentId));
  if (!db) return null;
  try {
    return await readUpdates(db);
  } catch {
    return null;
  } finally {
    db.close();
  }
}

/**
 * Reads this browser's copy of a document as the editor's route matches, while the editor's code is still
 * coming: opening IndexedDB and reading a book from it takes a few hundred milliseconds on a page that is busy
 * starting, and the editor can then be made with the document already in it. Called while rendering: read once
 * per document within EARLY_START_FRESH_MS. Only where the browser keeps a copy.
 */
export function readCopyEarly(documentId: string): void {
  if (typeof indexedDB === 'undefined' || !hasOfflineCopy(documentId)) return;
  if (early && isFreshFor(early, documentId)) return;
  const read = readWholeCopy(documentId);
  const started: NonNullable<typeof early> = {
    documentId,
    at: Date.now(),
    taken: false,
    read,
    value: undefined,
  };
  early = started;
  void read.then((value) => {
    started.value = value;
  });
}

/** The early read of this document's copy, if there is a recent one no session has taken yet. */
export function takeEarlyCopyRead(documentId: string): EarlyCopyRead | null {
  const asked = early;
  if (!asked || !isFreshFor(asked, documentId) || asked.taken) return null;
  asked.taken = true;
  return asked;
}
