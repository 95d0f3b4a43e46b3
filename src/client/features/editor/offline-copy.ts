import { fromBase64, toBase64 } from 'lib0/buffer';
import * as Y from 'yjs';
import { whenIdle } from '@client/lib/when-idle';
import {
  OFFLINE_COPY_JOURNAL_DELAY_MS,
  OFFLINE_COPY_TRIM_AFTER_WRITES,
  OFFLINE_COPY_TRIM_DELAY_MS,
  OFFLINE_COPY_WRITE_BATCH_MS,
} from '@shared/constants';
import { offlineJournalKey, offlineServerKey, offlineStoredKey } from './offline-copy-keys';
import {
  type EarlyCopyRead,
  openCopy,
  readUpdates,
  requestResult,
  type StoredUpdates,
  UPDATES_STORE,
} from './offline-copy-store';

/**
 * The browser's offline copy of a document, in IndexedDB (offline-copy-store.ts has its layout, the one
 * y-indexeddb used, so older copies open unchanged), written in batches: the updates of
 * OFFLINE_COPY_WRITE_BATCH_MS are merged into one write instead of one IndexedDB transaction per keystroke.
 *
 * Batching must not lose the last words when the tab closes or crashes: an IndexedDB write started while
 * the page unloads may never commit. So every update not yet confirmed in IndexedDB is also kept in a small
 * journal in localStorage (synchronous, and kept by the browser process when a tab dies), merged into one
 * update. Opening the document applies what the journal holds; Yjs ignores what is already there. The
 * pending batch is also written at once when the page is hidden or closed.
 *
 * The journal is written in idle time, at most OFFLINE_COPY_JOURNAL_DELAY_MS after a keystroke, and at once when
 * the page is hidden or closed: writing it inside the keystroke (merging and storing the unconfirmed updates)
 * cost about 0.4 ms of every keystroke's frame. A tab that crashes outright can lose that last moment of
 * typing, as it could with any asynchronous IndexedDB write.
 *
 * What came from the server (its state fetched over HTTP, what its socket sends) is written to IndexedDB but kept
 * out of the journal: the server keeps it, and the journal guards only what would be lost with the tab. Journaled,
 * a book's state made a journal of more than a megabyte, encoded again in one idle task (about 40 ms) after
 * the book opened and with every keystroke until IndexedDB had it, in storage browsers cap at a few megabytes.
 * So the copy counts as one to open from (hasOfflineCopy) only once IndexedDB has confirmed a write of the
 * server's document: a page closed right after its first sync may leave a copy without it, and the next opening
 * then fetches the server's state as a browser without a copy does.
 *
 * Opening: the copy may have been read as the editor's route matched (readCopyEarly); if that read is in when
 * the copy is made, the document is filled at once, so the editor is made with it instead of empty and then
 * rendered a second time. Only entries written after that read are read again. Every
 * OFFLINE_COPY_TRIM_AFTER_WRITES entries, the copy is rewritten as one.
 *
 * The copy also remembers which history of the document it belongs to (see `belongsTo`): Yjs merges two
 * histories of one text into a doubled text, so a copy of a history the server no longer has must not be
 * merged with the server's document.
 */
export class OfflineCopy {
  /** The IndexedDB connection, once open. */
  private db: IDBDatabase | null = null;
  /** The stored copy has been read into the document. */
  private synced = false;
  readonly whenSynced: Promise<this>;
  private resolveSynced!: (copy: this) => void;
  private destroyed = false;
  /** The copy was forgotten (clearData): a write still committing does not mark it kept again. */
  private forgotten = false;
  /** Entries from this key on have not been read into the document yet. */
  private nextKey = 0;
  /** Entries in the store, as far as this page knows (it trims them past OFFLINE_COPY_TRIM_AFTER_WRITES). */
  private storedCount = 0;
  private pending: Uint8Array[] = [];
  /** Updates from the server not yet written: stored like the others, but not journaled. */
  private pendingFromServer: Uint8Array[] = [];
  private readonly isFromServer: (origin: unknown) => boolean;
  /** Written to IndexedDB, commit not yet confirmed. */
  private inFlight: Uint8Array[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private trimTimer: ReturnType<typeof setTimeout> | null = null;
  /** Cancels the journal write waiting for idle time, if one is. */
  private cancelJournalWrite: (() => void) | null = null;
  private readonly journalKey: string;
  /** The state vector of the server's document when this copy last synced with it (base64). */
  private readonly serverKey: string;
  /** Set once IndexedDB holds the server's document (see hasOfflineCopy). */
  private readonly storedKey: string;
  private readonly opened: Promise<IDBDatabase | null>;
  private readonly batchMs: number;

  constructor(
    readonly name: string,
    readonly doc: Y.Doc,
    {
      batchMs = OFFLINE_COPY_WRITE_BATCH_MS,
      early = null,
      fromServer = () => false,
    }: {
      /** Updates of this window are written as one. */
      batchMs?: number;
      /** The copy as the editor's route read it (readCopyEarly), if it did. */
      early?: EarlyCopyRead | null;
      /** Whether an update's origin is the server (the collaboration provider): not journaled. */
      fromServer?: (origin: unknown) => boolean;
    } = {},
  ) {
    this.batchMs = batchMs;
    this.isFromServer = fromServer;
    this.journalKey = offlineJournalKey(name);
    this.serverKey = offlineServerKey(name);
    this.storedKey = offlineStoredKey(name);
    this.whenSynced = new Promise((resolve) => (this.resolveSynced = resolve));
    doc.on('update', this.storeUpdate);
    doc.on('destroy', this.onDocumentDestroyed);
    const readEarly = early?.value;
    if (readEarly) this.applyStored(readEarly);
    this.recoverJournal(doc);
    // An early read still under way is applied when it is in (even if that is before the database opens).
    this.opened = this.open(readEarly === undefined ? early : null);
    window.addEventListener('pagehide', this.flush);
    document.addEventListener('visibilitychange', this.flushWhenHidden);
  }

  /** Every update of the document not made by reading this copy is written, in batches. */
  readonly storeUpdate = (update: Uint8Array, origin: unknown): void => {
    // Updates that came out of this store (reading it) are already in it.
    if (origin === this) return;
    if (this.isFromServer(origin)) return this.storeFromServer(update);
    this.pending.push(update);
    this.cancelJournalWrite ??= whenIdle(() => {
      this.cancelJournalWrite = null;
      this.writeJournal();
    }, OFFLINE_COPY_JOURNAL_DELAY_MS);
    this.timer ??= setTimeout(this.flush, this.batchMs);
  };

  /** Written with the next batch, not journaled: the server has it. */
  private storeFromServer(update: Uint8Array): void {
    this.pendingFromServer.push(update);
    this.timer ??= setTimeout(this.flush, this.batchMs);
  }

  private async open(early: EarlyCopyRead | null): Promise<IDBDatabase | null> {
    let db: IDBDatabase;
    try {
      db = await openCopy(this.name);
    } catch {
      // No IndexedDB (private mode in some browsers, storage disabled): the journal and the server only.
      this.markSynced();
      return null;
    }
    if (this.destroyed) {
      db.close();
      return null;
    }
    this.db = db;
    // Another page deleting the copy (its session found it belongs to an old history) is not held up by this
    // one: the connection closes, and what is typed here stays in the journal.
    db.onversionchange = () => {
      db.close();
      if (this.db === db) this.db = null;
    };
    try {
      // An early read still under way when the session started is waited for rather than repeated.
      if (early) {
        const value = await early.read;
        if (value && !this.destroyed) this.applyStored(value);
      }
      // What was written since (another tab), or the whole copy when nothing was read early.
      if (!this.destroyed) this.applyStored(await readUpdates(db, this.nextKey));
    } catch {
      // An unreadable copy: the document comes from the server; what is typed is still written.
    }
    this.markSynced();
    return db;
  }

  private applyStored({ updates, lastKey, count }: StoredUpdates): void {
    if (updates.length > 0) {
      this.applyUnheard(() =>
        Y.transact(
          this.doc,
          () => {
            for (const update of updates) Y.applyUpdate(this.doc, update);
          },
          this,
          false,
        ),
      );
    }
    this.nextKey = Math.max(this.nextKey, lastKey + 1);
    this.storedCount = count;
  }

  /**
   * Applies the server's state, fetched over HTTP, and stores it as it came (not journaled: the server has it).
   */
  applyServerState(update: Uint8Array, origin: unknown): void {
    this.applyUnheard(() => Y.applyUpdate(this.doc, update, origin));
    this.storeFromServer(update);
  }

  /**
   * Runs `apply` with this copy not listening to the document's updates. Yjs encodes every transaction again for
   * its 'update' event as long as anyone listens; for a whole book that encoding took about as long as applying
   * it. While the document is being opened nothing else listens yet, so what the copy already holds,
   * or is handed as it came, is not encoded again for nothing.
   */
  private applyUnheard(apply: () => void): void {
    this.doc.off('update', this.storeUpdate);
    try {
      apply();
    } finally {
      if (!this.destroyed) this.doc.on('update', this.storeUpdate);
    }
  }

  private markSynced(): void {
    if (this.destroyed || this.synced) return;
    this.synced = true;
    this.resolveSynced(this);
  }

  private readonly onDocumentDestroyed = (): void => void this.destroy();

  /** Writes what is pending to IndexedDB as one merged update. */
  readonly flush = (): void => {
    // The page may be going away: the journal is brought up to date first, synchronously.
    if (this.cancelJournalWrite) this.writeJournal();
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0 && this.pendingFromServer.length === 0) return;
    if (!this.db) {
      // Still opening (the journal holds what was typed meanwhile, the server what it sent): try again after the
      // next batch window.
      if (!this.destroyed) this.timer = setTimeout(this.flush, this.batchMs);
      return;
    }
    if (this.pendingFromServer.length > 0) {
      // Its own entry: merging a book's state with the batch of keystrokes would decode all of it again.
      try {
        const written = this.write(this.db, merge(this.pendingFromServer));
        this.pendingFromServer = [];
        // Only a committed write makes the copy one to open from: a write started as the page closes may not be.
        written.oncomplete = this.markStored;
      } catch {
        // The connection is closing (the copy is being deleted): the server keeps it.
        return;
      }
    }
    if (this.pending.length === 0) return;
    const update = merge(this.pending);
    this.pending = [];
    let written: IDBTransaction;
    try {
      written = this.write(this.db, update);
    } catch {
      // The connection is closing (the copy is being deleted): the journal keeps the update.
      this.pending.unshift(update);
      return;
    }
    this.inFlight.push(update);
    // Committed: the journal no longer needs it.
    written.oncomplete = () => {
      this.inFlight = this.inFlight.filter((entry) => entry !== update);
      this.writeJournal();
    };
  };

  private write(db: IDBDatabase, update: Uint8Array): IDBTransaction {
    const transaction = db.transaction(UPDATES_STORE, 'readwrite');
    transaction.objectStore(UPDATES_STORE).add(update);
    this.storedCount += 1;
    if (this.storedCount >= OFFLINE_COPY_TRIM_AFTER_WRITES && this.trimTimer === null && !this.destroyed) {
      this.trimTimer = setTimeout(() => {
        this.trimTimer = null;
        void this.trim();
      }, OFFLINE_COPY_TRIM_DELAY_MS);
    }
    return transaction;
  }

  private readonly markStored = (): void => {
    if (this.forgotten) return;
    try {
      window.localStorage.setItem(this.storedKey, '1');
    } catch {
      // Storage full or disabled: the next opening fetches the server's state as well, and reads the copy.
    }
  };

  /**
   * Rewrites the copy as one entry: the document's whole state, after reading what other tabs wrote meanwhile,
   * in place of every entry read so far (all in one transaction, so a failure leaves the entries as they were).
   */
  private async trim(): Promise<void> {
    const db = this.db;
    if (!db || this.destroyed) return;
    try {
      const store = db.transaction(UPDATES_STORE, 'readwrite').objectStore(UPDATES_STORE);
      this.applyStored(await readUpdates(store, this.nextKey));
      await requestResult(store.add(Y.encodeStateAsUpdate(this.doc)));
      await requestResult(store.delete(IDBKeyRange.upperBound(this.nextKey, true)));
      this.storedCount = await requestResult(store.count());
    } catch {
      // Left as it was: the next write past the limit tries again.
    }
  }

  private readonly flushWhenHidden = (): void => {
    if (document.visibilityState === 'hidden') this.flush();
  };

  private writeJournal(): void {
    this.cancelJournalWrite?.();
    this.cancelJournalWrite = null;
    const unsaved = [...this.inFlight, ...this.pending];
    try {
      if (unsaved.length === 0) window.localStorage.removeItem(this.journalKey);
      else window.localStorage.setItem(this.journalKey, toBase64(merge(unsaved)));
    } catch {
      // Storage full or disabled: IndexedDB alone, as before batching.
    }
  }

  /** Applies what an earlier page left unsaved, and keeps it pending until IndexedDB has it. */
  private recoverJournal(doc: Y.Doc): void {
    let saved: string | null;
    try {
      saved = window.localStorage.getItem(this.journalKey);
    } catch {
      return;
    }
    if (!saved) return;
    try {
      const update = fromBase64(saved);
      Y.applyUpdate(doc, update, this);
      this.pending.push(update);
      this.timer ??= setTimeout(this.flush, this.batchMs);
    } catch {
      window.localStorage.removeItem(this.journalKey);
    }
  }

  /**
   * Whether this copy may be merged with the server's document, given the state vector of the server's
   * document (its first sync message). The server's document only grows, except when its history is started
   * anew: a REST replacement of a document nobody has open rebuilds its Yjs state from the JSON, under new
   * client ids. So a server that holds no change of any client it had when this copy last synced with it has
   * a new history, and this copy, merged with it, would double the text.
   */
  belongsTo(serverStateVector: Uint8Array): boolean {
    let known: string | null;
    try {
      known = window.localStorage.getItem(this.serverKey);
    } catch {
      return true;
    }
    const server = Y.decodeStateVector(serverStateVector);
    if (known) {
      const clients = [...Y.decodeStateVector(fromBase64(known)).keys()];
      if (clients.length > 0 && !clients.some((client) => server.has(client))) return false;
    }
    this.rememberServer(serverStateVector);
    return true;
  }

  /** Whether this copy knows a server history to compare with (see belongsTo). */
  knowsServerHistory(): boolean {
    try {
      return window.localStorage.getItem(this.serverKey) !== null;
    } catch {
      return false;
    }
  }

  /**
   * Remembers the server's history this copy is synced with, by a state vector that holds its clients. Naming
   * this browser's own clients too does no harm: a history the server starts anew never has them.
   */
  rememberServer(stateVector: Uint8Array): void {
    try {
      window.localStorage.setItem(this.serverKey, toBase64(stateVector));
    } catch {
      // Storage full or disabled: the next sync cannot tell a new history, as before.
    }
  }

  /** Writes what is pending and closes the copy (the document stays as it is). */
  async destroy(): Promise<void> {
    if (this.destroyed) return;
    this.flush();
    this.destroyed = true;
    if (this.trimTimer !== null) clearTimeout(this.trimTimer);
    this.doc.off('update', this.storeUpdate);
    this.doc.off('destroy', this.onDocumentDestroyed);
    window.removeEventListener('pagehide', this.flush);
    document.removeEventListener('visibilitychange', this.flushWhenHidden);
    (await this.opened)?.close();
  }

  /** Forgets the copy: its journal, what it knew of the server, and its database. */
  async clearData(): Promise<void> {
    this.forgotten = true;
    this.pending = [];
    this.pendingFromServer = [];
    this.inFlight = [];
    this.writeJournal();
    try {
      window.localStorage.removeItem(this.serverKey);
      window.localStorage.removeItem(this.storedKey);
    } catch {
      // Nothing was stored.
    }
    await this.destroy();
    // Not waited for: another page holding the copy open delays the deletion until it lets go, and a session
    // opening the copy again is served after the deletion anyway (IndexedDB runs them in order).
    try {
      void requestResult(indexedDB.deleteDatabase(this.name)).catch(() => undefined);
    } catch {
      // No IndexedDB.
    }
  }
}

const merge = (updates: Uint8Array[]): Uint8Array =>
  updates.length === 1 ? updates[0]! : Y.mergeUpdates(updates);
