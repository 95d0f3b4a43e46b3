import { fromBase64, toBase64 } from 'lib0/buffer';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { whenIdle } from '@client/lib/when-idle';
import { OFFLINE_COPY_JOURNAL_DELAY_MS, OFFLINE_COPY_WRITE_BATCH_MS } from '@shared/constants';
import { offlineJournalKey, offlineServerKey } from './offline-copy-keys';

/**
 * The browser's offline copy of a document (y-indexeddb), written in batches. y-indexeddb opens one
 * IndexedDB transaction per Yjs update — one per keystroke — which is steady work while typing. Here the
 * updates of OFFLINE_COPY_WRITE_BATCH_MS are merged into one write.
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
 * typing, as it could with y-indexeddb's own asynchronous writes.
 *
 * The copy also remembers which history of the document it belongs to (see `belongsTo`): Yjs merges two
 * histories of one text into a doubled text, so a copy of a history the server no longer has must not be
 * merged with the server's document.
 */
export class OfflineCopy extends IndexeddbPersistence {
  private pending: Uint8Array[] = [];
  /** Written to IndexedDB, commit not yet confirmed. */
  private inFlight: Uint8Array[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Cancels the journal write waiting for idle time, if one is. */
  private cancelJournalWrite: (() => void) | null = null;
  private readonly writeNow: (update: Uint8Array, origin: unknown) => void;
  private readonly journalKey: string;
  /** The state vector of the server's document when this copy last synced with it (base64). */
  private readonly serverKey: string;

  constructor(
    name: string,
    doc: Y.Doc,
    private readonly batchMs: number = OFFLINE_COPY_WRITE_BATCH_MS,
  ) {
    super(name, doc);
    this.journalKey = offlineJournalKey(name);
    this.serverKey = offlineServerKey(name);
    // Replace y-indexeddb's per-update writer with a batching one; its own writer does each batch's write.
    this.writeNow = this._storeUpdate;
    doc.off('update', this._storeUpdate);
    this._storeUpdate = (update, origin) => {
      // Updates that came out of this store (its first load) are already in it.
      if (origin === this) return;
      this.pending.push(update);
      this.cancelJournalWrite ??= whenIdle(() => {
        this.cancelJournalWrite = null;
        this.writeJournal();
      }, OFFLINE_COPY_JOURNAL_DELAY_MS);
      this.timer ??= setTimeout(this.flush, this.batchMs);
    };
    doc.on('update', this._storeUpdate);
    this.recoverJournal(doc);
    window.addEventListener('pagehide', this.flush);
    document.addEventListener('visibilitychange', this.flushWhenHidden);
  }

  /** Writes what is pending to IndexedDB as one merged update. */
  readonly flush = (): void => {
    // The page may be going away: the journal is brought up to date first, synchronously.
    if (this.cancelJournalWrite) this.writeJournal();
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.pending.length === 0) return;
    if (!this.db) {
      // Still opening (the journal holds the updates meanwhile): try again after the next batch window.
      if (!this._destroyed) this.timer = setTimeout(this.flush, this.batchMs);
      return;
    }
    const update = merge(this.pending);
    this.pending = [];
    this.inFlight.push(update);
    this.writeNow(update, null);
    // Transactions on one store run in order: when a later one completes, the write has committed.
    const check = this.db.transaction('updates', 'readonly');
    check.oncomplete = () => {
      this.inFlight = this.inFlight.filter((written) => written !== update);
      this.writeJournal();
    };
  };

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
    try {
      window.localStorage.setItem(this.serverKey, toBase64(serverStateVector));
    } catch {
      // Storage full or disabled: the next sync cannot tell a new history, as before.
    }
    return true;
  }

  override destroy(): Promise<void> {
    this.flush();
    window.removeEventListener('pagehide', this.flush);
    document.removeEventListener('visibilitychange', this.flushWhenHidden);
    return super.destroy();
  }

  override clearData(): Promise<void> {
    this.pending = [];
    this.inFlight = [];
    this.writeJournal();
    try {
      window.localStorage.removeItem(this.serverKey);
    } catch {
      // Nothing was stored.
    }
    return super.clearData();
  }
}

const merge = (updates: Uint8Array[]): Uint8Array =>
  updates.length === 1 ? updates[0]! : Y.mergeUpdates(updates);
