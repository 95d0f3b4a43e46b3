import type {
  afterUnloadDocumentPayload,
  Extension,
  onChangePayload,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import type { JSONContent } from '@tiptap/core';
import type { FastifyBaseLogger } from 'fastify';
import * as Y from 'yjs';
import { COLLAB_CLOSE, encodeStatelessMessage, encodeStateVector } from '../../shared/editor/collab-protocol';
import type { DocumentEvents, LiveDocumentStorage, LiveStoreResult, LiveWrite } from '../documents';
import type { CollabContext } from './authentication-extension';
import { contentToYDoc, repairLiveContent } from './content';
import { recordDocumentSize } from './connection-limits';

/**
 * Schedules another store of a live document whose store did not happen (the database failed, or the Redis
 * lock could not be taken). Hocuspocus only logs a failed store and stores again on the next change: without
 * this, edits made just before an outage stayed in memory only — never stored, their editors never told
 * "stored" — until someone typed again, and were dropped if everyone left first. The retry goes through the
 * store debounce (COLLAB_STORE_DEBOUNCE_MS), so a document is retried about once a second while the outage
 * lasts and a pending retry keeps it loaded; it writes the whole current state, so retrying is always safe.
 */
export function retryStoreLater(payload: onStoreDocumentPayload): void {
  const { instance, document, documentName } = payload;
  if (instance.documents.get(documentName) !== document) return;
  // The document writer's change that the failed store held is still pending (onStoreDocument puts it back).
  void instance.storeDocumentHooks(document, { ...payload, lastContext: {} });
}

/** The direct connection's context through which the document writer changes a live document (LiveDocuments). */
export interface WriterContext {
  writer: true;
}

const isWriterOrigin = (origin: unknown): boolean =>
  (origin as { context?: Partial<WriterContext> } | null)?.context?.writer === true;

export interface PersistenceDeps {
  storage: LiveDocumentStorage;
  events: DocumentEvents;
  log: FastifyBaseLogger;
}

/** The document writer's changes made in a live document and not stored yet, and who waits for their store. */
interface PendingWrite {
  write: LiveWrite;
  waiters: { resolve: (result: LiveStoreResult) => void; reject: (error: unknown) => void }[];
}

/**
 * Loads and stores live documents in the documents table, through the document writer (writer.ts).
 *
 * Load: the Yjs state (ydoc_state); a document that has never been live gets its first Yjs state built
 * from the JSON `content` and claimed with a compare-and-set, so two instances opening it at once start
 * from the same state instead of merging two copies of the text.
 *
 * Store (debounced by Hocuspocus): the writer's storeLive writes ydoc_state, the JSON `content` derived from it
 * and, when that content changed (or the state holds a change of the writer), version + 1 and updated_at,
 * together with the other documents due within 50 ms in one UPDATE. Then every client of the document gets a
 * `stored` stateless message (state vector, version, updatedAt) so its save indicator can say "Saved"
 * for exactly the edits that are in the database. See docs/collaboration.md.
 *
 * Content is validated once per change: edits from connections and other instances are repaired by the
 * validator before they are stored (repairLiveContent); when the only changes since the last store are the
 * writer's, already validated, the writer's content is stored as it is.
 */
export class PersistenceExtension implements Extension {
  extensionName = 'QuillwrightPersistence';

  /** Version of each live document when it was loaded, and after its latest store. */
  private readonly versions = new Map<string, { loaded: number; latest: number }>();
  /** Live documents changed since their last store by something other than the writer (they need repair). */
  private readonly unchecked = new Set<string>();
  private readonly pendingWrites = new Map<string, PendingWrite>();
  /** Unload hooks still running (see unloadHooksSettled). */
  private readonly unloadHooks = new Set<Promise<void>>();

  constructor(private readonly deps: PersistenceDeps) {}

  async onLoadDocument({ documentName, document }: onLoadDocumentPayload) {
    // Synchronous, so no change can slip between a store's look at it and its capture of the state.
    document.on('update', (_update: Uint8Array, origin: unknown) => {
      if (!isWriterOrigin(origin)) this.unchecked.add(documentName);
    });
    await this.load(documentName, document);
    // What was stored has been through the validator, or was built from validated JSON.
    this.unchecked.delete(documentName);
  }

  private async load(documentName: string, document: onLoadDocumentPayload['document']) {
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

  /** Who edits a live document, for the event stream (version history records its authors). */
  async onChange({ documentName, context }: onChangePayload<CollabContext>) {
    // Changes from the server itself (the writer) and from other instances carry no connection principal.
    const principal = context?.auth?.principal;
    if (!principal) return;
    await this.deps.events
      .publish({
        type: 'live.edited',
        documentId: documentName,
        editor: principal.kind === 'user' ? { userId: principal.userId } : 'share-link',
      })
      .catch((error: unknown) =>
        this.deps.log.warn({ err: error, documentId: documentName }, 'a live.edited subscriber failed'),
      );
  }

  /**
   * The document writer made `write` in the live document: resolves with the result of the first store that
   * holds it (the writer's PATCH answers with it), or rejects when that store fails.
   */
  storedWrite(documentName: string, write: LiveWrite): Promise<LiveStoreResult> {
    return new Promise((resolve, reject) => {
      const pending = this.pendingWrites.get(documentName);
      if (pending) {
        pending.write = { ...write, title: write.title ?? pending.write.title };
        pending.waiters.push({ resolve, reject });
      } else {
        this.pendingWrites.set(documentName, { write, waiters: [{ resolve, reject }] });
      }
    });
  }

  async onStoreDocument(payload: onStoreDocumentPayload) {
    const { documentName, document } = payload;
    const pending = this.pendingWrites.get(documentName);
    this.pendingWrites.delete(documentName);
    const checked = pending !== undefined && !this.unchecked.has(documentName);
    this.unchecked.delete(documentName);
    // Live content is checked by the same validator as REST writes before it is stored. What fails it is
    // repaired in the live document itself, so the repair reaches every editor (and other instances) as an
    // ordinary Yjs change and the state stored below is the clean one. Only the writer's changes since the
    // last store: its content was validated when it was written.
    const content = checked
      ? (pending.write.content as JSONContent)
      : repairLiveContent(document, this.deps.log, documentName);
    // Captured in one synchronous step, so the state vector describes exactly what is written.
    const state = Y.encodeStateAsUpdate(document);
    const stateVector = encodeStateVector(document);
    recordDocumentSize(document, state.byteLength);
    const write = pending?.write;
    let row;
    try {
      row = await this.deps.storage.store(
        {
          documentId: documentName,
          state,
          content,
          title: write?.title ?? null,
          write: write && { source: write.source, userId: write.userId },
        },
        {
          // The writer's caller (a PATCH) answers after this store.
          now: pending !== undefined,
          onStored: (stored) =>
            document.broadcastStateless(
              encodeStatelessMessage({
                type: 'stored',
                stateVector,
                version: stored.version,
                updatedAt: stored.updatedAt.toISOString(),
              }),
            ),
        },
      );
    } catch (error) {
      // The database failed (connection lost, disk full...). No `stored` message goes out, so clients keep
      // showing "Saving...", and the store is tried again: see retryStoreLater. The writer's change stays
      // pending for that retry (its title, its version move); its caller is told now.
      if (write) {
        const later = this.pendingWrites.get(documentName);
        this.pendingWrites.set(documentName, {
          write: { ...(later?.write ?? write), title: later?.write.title ?? write.title },
          waiters: later?.waiters ?? [],
        });
      }
      if (!checked) this.unchecked.add(documentName);
      for (const waiter of pending?.waiters ?? []) waiter.reject(error);
      // Logged and re-thrown without the driver's error: it carries the statement's parameters, i.e. the
      // whole document. Thrown, so that the afterStoreDocument hooks do not run for a store that did not happen.
      const { message, code } = error as { message?: string; code?: string };
      this.deps.log.warn(
        { documentId: documentName, code, error: message },
        'storing a live document failed; will retry',
      );
      retryStoreLater(payload);
      // eslint-disable-next-line preserve-caught-error -- see above: message and code are kept, not the document
      throw new Error(`storing live document ${documentName} failed: ${message}`);
    }
    for (const waiter of pending?.waiters ?? []) waiter.resolve(row);
    if (!row) {
      // Deleted while live: nothing to store into; tell the clients instead of failing forever.
      this.deps.log.info({ documentId: documentName }, 'live document was deleted; closing its connections');
      for (const connection of document.getConnections()) connection.close(COLLAB_CLOSE.accessRevoked);
      return;
    }
    const versions = this.versions.get(documentName);
    if (versions) versions.latest = row.version;
  }

  async afterUnloadDocument({ documentName }: afterUnloadDocumentPayload) {
    const versions = this.versions.get(documentName);
    this.versions.delete(documentName);
    this.unchecked.delete(documentName);
    this.pendingWrites.delete(documentName);
    if (!versions || versions.latest === versions.loaded) return;
    const hook = (async () => {
      try {
        await this.deps.events.publish({ type: 'unloaded', documentId: documentName });
      } catch (error) {
        this.deps.log.error({ err: error, documentId: documentName }, 'an unloaded subscriber failed');
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
