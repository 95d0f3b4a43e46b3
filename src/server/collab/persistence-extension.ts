import type {
  afterUnloadDocumentPayload,
  Extension,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import * as Y from 'yjs';
import { COLLAB_CLOSE, encodeStatelessMessage, encodeStateVector } from '../../shared/editor/collab-protocol';
import { contentToYDoc, repairLiveContent } from './content';
import { recordDocumentSize } from './connection-limits';
import { StoreBatch, type StoreMany } from './store-batch';

/**
 * Schedules another store of a live document whose store did not happen (the database failed, or the Redis
 * lock could not be taken). Hocuspocus only logs a failed store and stores again on the next change: without
 * this, edits made just before an outage stayed in memory only — never stored, their editors never told
 * "stored" — until someone typed again, and were dropped if everyone left first. The retry goes through the
 * store debounce (COLLAB_STORE_DEBOUNCE_MS), so a document is retried about once a second while the outage
 * lasts and a pending retry keeps it loaded; it writes the whole current state, so retrying is always safe.
 */
export function retryStoreLater(payload: onStoreDocumentPayload<StoreContext>): void {
  const { instance, document, documentName } = payload;
  if (instance.documents.get(documentName) !== document) return;
  // An ordinary store: a REST replacement that triggered the failed one had already committed its content and
  // version, and the version rule keeps that version while the content is unchanged.
  void instance.storeDocumentHooks(document, { ...payload, lastContext: {} });
}

/** Context of the transaction that triggered a store; set by LiveDocuments for REST replacements. */
export interface StoreContext {
  restVersion?: number;
}

/**
 * Where live documents come from and go to, given by the documents module (the way
 * @hocuspocus/extension-database takes fetch/store callbacks): see liveDocumentStorage in
 * src/server/documents/service.ts.
 */
export interface LiveDocumentStorage {
  /** The stored Yjs state and JSON content, or undefined when the document does not exist. */
  fetch(
    documentId: string,
  ): Promise<{ ydocState: Uint8Array | null; content: unknown; version: number } | undefined>;
  /** Sets the first Yjs state of a document that has none; false when someone else set it first. */
  claimFirstState(documentId: string, state: Uint8Array): Promise<boolean>;
  /** Stores many documents' states and validated content in one statement. */
  storeMany: StoreMany;
  /** Called when the last editor leaves a document whose content changed while it was live. */
  onUnloadedAfterChanges?(documentId: string): void | Promise<void>;
}

export interface PersistenceDeps {
  storage: LiveDocumentStorage;
  log: FastifyBaseLogger;
}

/**
 * Loads and stores live documents in the documents table.
 *
 * Load: the Yjs state (ydoc_state); a document that has never been live gets its first Yjs state built
 * from the JSON `content` and claimed with a compare-and-set, so two instances opening it at once start
 * from the same state instead of merging two copies of the text.
 *
 * Store (debounced by Hocuspocus): ydoc_state, the JSON `content` derived from it, and — only when that
 * content changed — version + 1 and updated_at (a REST replacement already took its version), written
 * together with the other documents due within 50 ms in one UPDATE (StoreBatch). Then every client of the document gets a
 * `stored` stateless message (state vector, version, updatedAt) so its save indicator can say "Saved"
 * for exactly the edits that are in the database. See docs/collaboration.md.
 */
export class PersistenceExtension implements Extension {
  extensionName = 'QuillwrightPersistence';

  private readonly batch: StoreBatch;
  /** Version of each live document when it was loaded, and after its latest store. */
  private readonly versions = new Map<string, { loaded: number; latest: number }>();
  /** Unload hooks still running (see unloadHooksSettled). */
  private readonly unloadHooks = new Set<Promise<void>>();

  constructor(private readonly deps: PersistenceDeps) {
    this.batch = new StoreBatch(deps.storage.storeMany);
  }

  async onLoadDocument({ documentName, document }: onLoadDocumentPayload) {
    const { storage } = this.deps;
    const row = await storage.fetch(documentName);
    if (!row) throw { code: COLLAB_CLOSE.notFound.code, reason: COLLAB_CLOSE.notFound.reason };
    this.versions.set(documentName, { loaded: row.version, latest: row.version });
    if (row.ydocState) {
      Y.applyUpdate(document, row.ydocState);
      recordDocumentSize(document, row.ydocState.byteLength);
      return;
    }
    const built = contentToYDoc(row.content);
    const initial = Y.encodeStateAsUpdate(built);
    built.destroy();
    if (await storage.claimFirstState(documentName, initial)) {
      Y.applyUpdate(document, initial);
      recordDocumentSize(document, initial.byteLength);
      return;
    }
    // Another instance (or a concurrent load) claimed the first state: use theirs.
    const winner = await storage.fetch(documentName);
    if (!winner?.ydocState) throw { code: COLLAB_CLOSE.notFound.code, reason: COLLAB_CLOSE.notFound.reason };
    Y.applyUpdate(document, winner.ydocState);
    recordDocumentSize(document, winner.ydocState.byteLength);
  }

  async onStoreDocument(payload: onStoreDocumentPayload<StoreContext>) {
    const { documentName, document, lastContext } = payload;
    // Live content is checked by the same validator as REST writes before it is stored. What fails it is
    // repaired in the live document itself, so the repair reaches every editor (and other instances) as an
    // ordinary Yjs change and the state stored below is the clean one.
    const content = repairLiveContent(document, this.deps.log, documentName);
    // Captured in one synchronous step, so the state vector describes exactly what is written.
    const state = Y.encodeStateAsUpdate(document);
    const stateVector = encodeStateVector(document);
    recordDocumentSize(document, state.byteLength);
    const restVersion = lastContext?.restVersion;
    let row;
    try {
      row = await this.batch.store(
        { documentId: documentName, state, content: JSON.stringify(content), restVersion: restVersion ?? -1 },
        // A REST replacement answers its PATCH after this store.
        { now: restVersion !== undefined },
      );
    } catch (error) {
      // The database failed (connection lost, disk full...). No `stored` message goes out, so clients keep
      // showing "Saving...", and the store is tried again: see retryStoreLater.
      // Logged and re-thrown without the driver's error: it carries the statement's parameters, i.e. the
      // whole document. Thrown, so that the afterStoreDocument hooks (versions) do not run for a store that
      // did not happen.
      const { message, code } = error as { message?: string; code?: string };
      this.deps.log.warn(
        { documentId: documentName, code, error: message },
        'storing a live document failed; will retry',
      );
      retryStoreLater(payload);
      // eslint-disable-next-line preserve-caught-error -- see above: message and code are kept, not the document
      throw new Error(`storing live document ${documentName} failed: ${message}`);
    }
    if (!row) {
      // Deleted while live: nothing to store into; tell the clients instead of failing forever.
      this.deps.log.info({ documentId: documentName }, 'live document was deleted; closing its connections');
      for (const connection of document.getConnections()) connection.close(COLLAB_CLOSE.accessRevoked);
      return;
    }
    const versions = this.versions.get(documentName);
    if (versions) versions.latest = row.version;
    document.broadcastStateless(
      encodeStatelessMessage({
        type: 'stored',
        stateVector,
        version: row.version,
        updatedAt: row.updatedAt.toISOString(),
      }),
    );
  }

  async afterUnloadDocument({ documentName }: afterUnloadDocumentPayload) {
    const versions = this.versions.get(documentName);
    this.versions.delete(documentName);
    if (!versions || versions.latest === versions.loaded) return;
    const hook = (async () => {
      try {
        await this.deps.storage.onUnloadedAfterChanges?.(documentName);
      } catch (error) {
        this.deps.log.error({ err: error, documentId: documentName }, 'live document unload hook failed');
      }
    })();
    this.unloadHooks.add(hook);
    try {
      await hook;
    } finally {
      this.unloadHooks.delete(hook);
    }
  }

  /**
   * Resolves when every unload hook under way has finished. Shutdown waits for it before the database closes,
   * so the work those hooks do (a `session_end` version) is written rather than cut off.
   */
  async unloadHooksSettled(): Promise<void> {
    while (this.unloadHooks.size > 0) await Promise.all(this.unloadHooks);
  }
}
