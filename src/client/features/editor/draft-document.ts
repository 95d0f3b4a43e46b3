import * as Y from 'yjs';

/** The writer's own saving (the "Auto-save" preference turned off). */
export interface ManualSave {
  /** Whether the draft holds changes not yet sent with `save()`. */
  hasUnsavedChanges(): boolean;
  /** Sends the draft's unsaved changes to the server (stored like any live edit). */
  save(): void;
  /** Calls `listener` when hasUnsavedChanges() may have changed; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** Origin of updates copied between the server's document and the draft. */
const FROM_SERVER = Symbol('from-server');
const FROM_DRAFT = Symbol('from-draft');

/**
 * The editor's document while auto-save is off. Everything the server's document receives (other people's
 * changes, the first sync) is copied into the draft at once; the draft's own changes wait for `save()`,
 * which sends what the server's document lacks in one update. Yjs merges it like any edit made offline.
 * The two documents keep their own client ids: Yjs renames a document that receives changes under its own
 * id. Presence stays on the server document's id (the provider's), the draft's changes carry the draft's.
 */
export class DraftDocument implements ManualSave {
  readonly doc = new Y.Doc();
  private unsaved = false;
  private serverSynced = false;
  private readonly listeners = new Set<() => void>();

  /** `isRestore(origin)`: the update is the browser's stored copy being loaded (OfflineCopy). */
  constructor(
    private readonly server: Y.Doc,
    private readonly isRestore: (origin: unknown) => boolean,
  ) {
    server.on('update', this.onServerUpdate);
    this.doc.on('update', this.onDraftUpdate);
  }

  hasUnsavedChanges(): boolean {
    return this.unsaved;
  }

  save(): void {
    if (!this.unsaved) return;
    Y.applyUpdate(this.server, Y.encodeStateAsUpdate(this.doc, Y.encodeStateVector(this.server)), FROM_DRAFT);
    this.setUnsaved(false);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * After the server's first sync: a draft restored from IndexedDB may hold changes an earlier page never
   * saved. Snapshots compare both what was written and what was deleted (state vectors miss deletions).
   */
  compareWithServer(): void {
    this.serverSynced = true;
    this.setUnsaved(!Y.equalSnapshots(Y.snapshot(this.doc), Y.snapshot(this.server)));
  }

  destroy(): void {
    this.server.off('update', this.onServerUpdate);
    this.doc.off('update', this.onDraftUpdate);
    this.doc.destroy();
    this.listeners.clear();
  }

  private readonly onServerUpdate = (update: Uint8Array, origin: unknown) => {
    if (origin !== FROM_DRAFT) Y.applyUpdate(this.doc, update, FROM_SERVER);
  };

  private readonly onDraftUpdate = (_update: Uint8Array, origin: unknown, _doc: Y.Doc, tr: Y.Transaction) => {
    if (origin === FROM_SERVER) return;
    // A draft restored from IndexedDB is unsaved only if it differs from the server's document.
    if (this.isRestore(origin)) {
      if (this.serverSynced) this.compareWithServer();
      return;
    }
    if (tr.local) this.setUnsaved(true);
  };

  private setUnsaved(unsaved: boolean): void {
    if (this.unsaved === unsaved) return;
    this.unsaved = unsaved;
    for (const listener of this.listeners) listener();
  }
}
