import type { JSONContent } from '@tiptap/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { ServerDependencies } from '../dependencies';
import { StoreBatch } from './store-batch';
import { badRequest, conflict, notFound, preconditionFailed } from '../errors';
import { DEFAULT_DOCUMENT_TITLE } from '../../shared/constants';
import { repairRichText } from '../../shared/editor/validate';
import { emptyDoc, sanitizeDocContent, type RichTextDoc } from '../../shared/schemas/richText';
import type { DocumentEvents, WriteSource } from './events';
import {
  countDocumentsTrashedWith,
  deleteDocumentsTrashedWith,
  placeDocument,
  restoreDocumentsTrashedWith,
  trashDocumentsInFolders,
  type Queryable,
} from './folder-repository';
import {
  claimFirstLiveState,
  findContentForChange,
  replaceContentAtVersion,
  deleteTrashedDocuments,
  findLiveState,
  findWritableDocumentHead,
  insertDocument,
  purgeExpiredTrash,
  isInTrashOf,
  restoreTrashedDocument,
  storeLiveStates,
  trashOwnedDocument,
  updateOwnedDocument,
  type DocumentRecord,
  type LiveStoreResult,
} from './repository';

/**
 * The one writer of documents: every change of content or title, whatever its source (a PATCH, the
 * collaboration socket and the share links that edit through it, an import, a version restore), is one call
 * here that validates the content once and writes the row once, then announces the change on the documents
 * event stream (events.ts).
 *
 * - A document nobody has open changes with one UPDATE (repository.updateOwnedDocument), If-Match checked in it.
 * - A live document (open in the collaboration server) changes through its Y.Doc: the writer makes the body
 *   equal to the new content there (every editor sees it at once) and the collaboration server's normal store
 *   writes it (storeLive), with the title when one was sent. No row write comes before that store.
 * - The collaboration server stores every live document through storeLive, batched (StoreBatch).
 *
 * The version rule (the ETag) is repository.versionRule, used by both statements.
 */

/** Content the writer's validator accepted: the only content the writer stores. Made by DocumentWriter.validate. */
export class ValidContent {
  /** @internal use DocumentWriter.validate */
  constructor(
    readonly doc: RichTextDoc,
    brand: typeof VALID,
  ) {
    void brand;
  }
}
const VALID = Symbol('valid content');

/** Reads and compare-and-set writes a content change tries before giving up (each lost to a concurrent write). */
const CHANGE_ATTEMPTS = 5;

/** The transaction a folder change runs in, handed to the folders feature's part of it. */
export type FolderTransaction = Queryable & Pick<Db, 'insert' | 'execute'>;

/** A change the writer makes to a live document (LiveDocumentWrites.write). */
export interface LiveWrite {
  content: RichTextDoc;
  /** A new title stored with the content, or null. */
  title: string | null;
  source: WriteSource;
  /** Who made the change; undefined for a share-link visitor. */
  userId: string | undefined;
}

/**
 * A change computed from the document's current content (a thread's mark added or taken off): the new content,
 * or null when there is nothing to change. It may run more than once (a retry after a concurrent write) and
 * must give the same answer for the same content.
 */
export type ContentChange = (content: RichTextDoc) => RichTextDoc | null;

/** What the writer needs of the collaboration server (collab/live-documents.ts). */
export interface LiveDocumentWrites {
  /** Whether changes of the document's content must go through its Y.Doc (it is, or may be, open). */
  mustWriteThroughLive(documentId: string): boolean;
  /** Whether this instance holds the document right now (loaded, loading or unloading). */
  isLoaded(documentId: string): boolean;
  /**
   * Makes the live document's body equal to `write.content` in one Yjs change and resolves with what the
   * store that follows wrote (storeLive); undefined when the document is gone.
   */
  write(documentId: string, write: LiveWrite): Promise<LiveStoreResult>;
  /**
   * Applies `change` to the live document's current body inside one Yjs change (nothing can come between the
   * read and the write) and resolves with whether it changed anything, once the store that follows is made.
   */
  change(documentId: string, change: ContentChange, write: Omit<LiveWrite, 'content'>): Promise<boolean>;
}

/** One live document's state, as the collaboration server hands it to storeLive. */
export interface LiveStore {
  documentId: string;
  /** Y.encodeStateAsUpdate of the document. */
  state: Uint8Array;
  /** The validated body derived from that state (or the writer's validated content it holds). */
  content: JSONContent;
  /** A title the document writer sent with a change held in this state, or null. */
  title: string | null;
  /** The document writer's change held in this state (its source and user), if any. */
  write?: { source: WriteSource; userId: string | undefined } | undefined;
}

export type DocumentWriterDeps = Pick<
  ServerDependencies,
  'database' | 'log' | 'documentCreationCheck' | 'metrics'
> & {
  events: DocumentEvents;
  /** How long a document stays in the trash before the purge deletes it (TRASH_RETENTION_DAYS). */
  trashRetentionDays: number;
};

export interface UpdateInput {
  userId: string;
  documentId: string;
  title?: string | undefined;
  content?: ValidContent | undefined;
  source: WriteSource;
  /** If-Match: the write happens only while the version is one of these; else 412 and nothing changes. */
  expectedVersions?: readonly number[] | undefined;
  /**
   * Also require this session of the user to be active, in the same statement. When the result is "not
   * found" (404, or 412) the caller must run the full session check (requireUser) to answer 401 instead.
   */
  sessionId?: string | undefined;
}

export class DocumentWriter {
  private live: LiveDocumentWrites | undefined;
  private readonly batch: StoreBatch;
  /** Writes to one live document take turns, so two If-Match checks cannot both pass before either is stored. */
  private readonly liveQueues = new Map<string, Promise<unknown>>();
  private readonly log: FastifyBaseLogger;

  constructor(private readonly deps: DocumentWriterDeps) {
    this.batch = new StoreBatch(
      (stores) => storeLiveStates(deps.database, stores),
      (documents, seconds, ok) => deps.metrics.storeBatch(documents, seconds, ok),
    );
    this.log = deps.log.child({ module: 'documents' });
  }

  /** Called once by the collaboration server when it starts. */
  attachLiveDocuments(live: LiveDocumentWrites): void {
    this.live = live;
  }

  /**
   * The validator, once per write: `refuse` (REST bodies, imports) answers 400 `validation_failed` naming the
   * problem; `repair` (a version restore, whose content was valid when it was kept) never fails.
   */
  validate(content: unknown, mode: 'refuse' | 'repair' = 'refuse'): ValidContent {
    if (mode === 'repair') return new ValidContent(repairRichText(content).doc, VALID);
    const result = sanitizeDocContent(content);
    if (!result.ok) throw badRequest(`content: ${result.message}`, 'validation_failed');
    return new ValidContent(result.doc, VALID);
  }

  /**
   * Creates a document owned by `ownerId` (REST create, imports). A missing or blank title becomes "Untitled
   * Document" and missing content the empty doc. The creation check applies (the plan limits' 403 `plan_limit`).
   */
  async create(input: {
    ownerId: string;
    title?: string | undefined;
    content?: ValidContent | undefined;
    source: WriteSource;
  }): Promise<DocumentRecord> {
    const { database, documentCreationCheck: check } = this.deps;
    const values = {
      userId: input.ownerId,
      title: input.title?.trim() || DEFAULT_DOCUMENT_TITLE,
      content: input.content?.doc ?? emptyDoc(),
    };
    // The creation check: the one place a new document can be refused. It runs inside this transaction,
    // where it may lock the user's row, so concurrent creates cannot both slip under a limit.
    const document = check.applies
      ? await database.db.transaction(async (tx) => {
          await check.assertMayCreate(tx, input.ownerId);
          return insertDocument(tx, values, { prepared: false });
        })
      : await insertDocument(database.db, values);
    await this.deps.events.publish({
      type: 'created',
      documentId: document.id,
      userId: input.ownerId,
      source: input.source,
    });
    return document;
  }

  /**
   * Changes the user's document and returns the new row (version + 1, new updated_at). 404 when it is missing
   * or not theirs, 412 when If-Match does not match.
   */
  async update(input: UpdateInput): Promise<DocumentRecord> {
    const { documentId, content } = input;
    const title = input.title?.trim();
    if (content && this.live?.mustWriteThroughLive(documentId)) {
      return this.inTurn(documentId, () => this.updateLive(input, content, title));
    }
    const { userId, expectedVersions, sessionId } = input;
    if (content) {
      // Listeners of content.replacing write (a version of the text about to go): only for someone who may
      // replace it. The update statement below checks again, in the same statement as its write.
      const head = await findWritableDocumentHead(this.deps.database.db, userId, documentId, sessionId);
      if (!head) throw notFound('Document not found');
      await this.publishReplacing(input);
    }
    let document: DocumentRecord | undefined;
    if (!expectedVersions || expectedVersions.length > 0) {
      const updated = await updateOwnedDocument(this.deps.database.db, userId, documentId, {
        sessionId,
        title: title ?? null,
        content: content ? JSON.stringify(content.doc) : null,
        versions: expectedVersions ? expectedVersions.join(',') : null,
      });
      // What was stored is exactly content.doc (serialized above), so it is not read back.
      document =
        updated &&
        ('content' in updated ? (updated as DocumentRecord) : { ...updated, content: content!.doc });
    }
    if (!document) return this.refuse(input);
    if (content && this.live?.isLoaded(documentId)) {
      // Opened between the check above and the UPDATE: the load may have read the old state, which its next
      // store would write back. The change goes through the live document too.
      const stored = await this.live.write(documentId, this.liveWriteOf(input, content, null));
      if (stored) document = { ...document, version: stored.version, updatedAt: stored.updatedAt };
    } else if (content) {
      await this.deps.events.publish({
        type: 'content.changed',
        documentId,
        source: input.source,
        userId,
        version: document.version,
      });
    }
    if (title !== undefined) await this.publishTitle(document, userId);
    return document;
  }

  /** A live document's change: checked, then made in its Y.Doc and stored by the collaboration server's store. */
  private async updateLive(
    input: UpdateInput,
    content: ValidContent,
    title: string | undefined,
  ): Promise<DocumentRecord> {
    const { userId, documentId, expectedVersions, sessionId } = input;
    const db = this.deps.database.db;
    const head = await findWritableDocumentHead(db, userId, documentId, sessionId);
    if (!head) throw notFound('Document not found');
    if (expectedVersions && !expectedVersions.includes(head.version)) return this.refuse(input);
    await this.publishReplacing(input);
    const stored = await this.live!.write(documentId, this.liveWriteOf(input, content, title ?? null));
    if (!stored) throw notFound('Document not found');
    const document: DocumentRecord = {
      id: head.id,
      title: title ?? head.title,
      userId: head.userId,
      createdAt: head.createdAt,
      isPublic: head.isPublic,
      content: content.doc,
      version: stored.version,
      updatedAt: stored.updatedAt,
    };
    // content.changed went out with the store (storeLive).
    if (title !== undefined) await this.publishTitle(document, userId);
    return document;
  }

  /**
   * A change of the content that the caller authorized with an ability other than `write`: a thread's
   * `comment` mark, applied for someone who may comment (comments feature). `change` runs on the current
   * content (the live body when the document is open, so no concurrent edit is lost) and its result is
   * checked by the validator. Resolves with whether the document changed; 404 when it is missing or trashed.
   */
  async changeContent(input: {
    documentId: string;
    userId: string | undefined;
    source: WriteSource;
    change: ContentChange;
  }): Promise<boolean> {
    const { documentId, source, userId } = input;
    const change: ContentChange = (content) => {
      const next = input.change(content);
      return next && repairRichText(next).doc;
    };
    if (this.live?.mustWriteThroughLive(documentId)) {
      const live = this.live;
      return this.inTurn(documentId, () => live.change(documentId, change, { title: null, source, userId }));
    }
    const db = this.deps.database.db;
    for (let attempt = 0; attempt < CHANGE_ATTEMPTS; attempt++) {
      const row = await findContentForChange(db, documentId);
      if (!row) throw notFound('Document not found');
      const next = change(repairRichText(row.content).doc);
      if (!next) return false;
      const stored = await replaceContentAtVersion(db, documentId, next, row.version);
      if (!stored) continue;
      if (this.live?.isLoaded(documentId)) {
        // Opened since the read: the load may hold the old content, so the change is made there too.
        await this.live.change(documentId, change, { title: null, source, userId });
      } else {
        await this.deps.events.publish({
          type: 'content.changed',
          documentId,
          source,
          userId,
          version: stored.version,
        });
      }
      return true;
    }
    throw conflict('The document changed while the comment was being placed. Try again.', 'document_busy');
  }

  /**
   * Stores a live document (the collaboration server's store, debounced): batched with the other documents
   * due within STORE_BATCH_WINDOW_MS into one UPDATE, or at once when `now` (someone waits on it). `onStored`
   * runs as soon as the row is written, before the `content.changed` subscribers. Undefined when the document
   * no longer exists.
   */
  async storeLive(
    store: LiveStore,
    options: { now?: boolean; onStored?: (result: NonNullable<LiveStoreResult>) => void } = {},
  ): Promise<LiveStoreResult> {
    const result = await this.batch.store(
      {
        documentId: store.documentId,
        state: store.state,
        content: JSON.stringify(store.content),
        title: store.title,
        writerChange: store.write !== undefined,
      },
      { now: options.now },
    );
    if (!result) return result;
    options.onStored?.(result);
    // The store is made: a subscriber's failure is logged, never un-stores it.
    await this.deps.events
      .publish({
        type: 'content.changed',
        documentId: store.documentId,
        source: store.write?.source ?? 'socket',
        userId: store.write?.userId,
        version: result.version,
        live: store.content,
      })
      .catch((error: unknown) =>
        this.log.warn({ err: error, documentId: store.documentId }, 'a content.changed subscriber failed'),
      );
    return result;
  }

  /**
   * Moves the user's document to the trash (what deleting a document does); 404 when it is missing, not theirs
   * or already there. Nothing of it is deleted: it is restored as it was, or purged after the retention period.
   */
  async trash(userId: string, documentId: string): Promise<void> {
    if (!(await trashOwnedDocument(this.deps.database.db, userId, documentId)))
      throw notFound('Document not found');
    await this.deps.events.publish({ type: 'trashed', documentId, userId });
  }

  /**
   * Brings the user's trashed document back; 404 when it is not in their trash. It counts again towards the plan's
   * document limit, so the creation check applies: at the limit the restore is refused (403 `plan_limit`) rather
   * than letting trash-and-restore go past it.
   */
  async restore(userId: string, documentId: string): Promise<void> {
    const { database, documentCreationCheck: check } = this.deps;
    const restored = check.applies
      ? await database.db.transaction(async (tx) => {
          // Not in the user's trash: 404 before the plan is looked at (it would tell a stranger nothing, but
          // every way in answers the same for what is not theirs). Then counted before it is back (it must
          // fit under the limit), under the same lock as creates.
          if (!(await isInTrashOf(tx, userId, documentId))) return false;
          await check.assertMayCreate(tx, userId);
          return restoreTrashedDocument(tx, userId, documentId);
        })
      : await restoreTrashedDocument(database.db, userId, documentId);
    if (!restored) throw notFound('Document not found');
    await this.deps.events.publish({ type: 'restored', documentId, userId });
  }

  /**
   * Deletes the user's trashed document for good (`documentId`), or their whole trash (undefined), with its
   * versions, suggestions and chat. 404 when the one document is not in their trash.
   */
  async deleteForever(userId: string, documentId?: string): Promise<void> {
    const deleted = await deleteTrashedDocuments(this.deps.database.db, userId, documentId);
    if (documentId !== undefined && deleted.length === 0) throw notFound('Document not found');
    for (const id of deleted) await this.deps.events.publish({ type: 'deleted', documentId: id, userId });
  }

  /**
   * Puts the user's document in a folder (null: the top level) at `position` among the documents there
   * (undefined: last, or where it is when it stays). Neither its content nor its version changes. 404 when
   * the document is not theirs. `checkFolder` (the folders feature's) runs first in the same transaction and
   * refuses a folder that is not the user's.
   */
  async place(input: {
    userId: string;
    documentId: string;
    folderId: string | null;
    position?: number | undefined;
    checkFolder: (tx: FolderTransaction) => Promise<void>;
  }): Promise<void> {
    const placed = await this.deps.database.db.transaction(async (tx) => {
      await input.checkFolder(tx);
      return placeDocument(tx, input.userId, input.documentId, input.folderId, input.position);
    });
    if (!placed) throw notFound('Document not found');
  }

  /**
   * Deleting a folder: `trashFolders` (the folders feature's) moves the folder `rootId` and its sub-folders to
   * the trash and returns their ids; the user's documents in them go with it, in the same transaction.
   */
  async trashFolder(
    userId: string,
    rootId: string,
    trashFolders: (tx: FolderTransaction) => Promise<string[]>,
  ): Promise<void> {
    const trashed = await this.deps.database.db.transaction(async (tx) => {
      const folderIds = await trashFolders(tx);
      return trashDocumentsInFolders(tx, userId, folderIds, rootId);
    });
    for (const documentId of trashed) await this.deps.events.publish({ type: 'trashed', documentId, userId });
  }

  /**
   * Restoring a folder: `restoreFolders` (the folders feature's) brings back the folder `rootId` and what went
   * with it (404 when it is not in the user's trash); the documents that went with it come back too. They count
   * again towards the plan's document limit, all of them (403 `plan_limit` when they do not fit).
   */
  async restoreFolder(
    userId: string,
    rootId: string,
    restoreFolders: (tx: FolderTransaction) => Promise<void>,
  ): Promise<void> {
    const check = this.deps.documentCreationCheck;
    const restored = await this.deps.database.db.transaction(async (tx) => {
      await restoreFolders(tx);
      if (check.applies) {
        const coming = (await countDocumentsTrashedWith(tx, userId, [rootId])).get(rootId) ?? 0;
        if (coming > 0) await check.assertMayCreate(tx, userId, coming);
      }
      return restoreDocumentsTrashedWith(tx, userId, rootId);
    });
    for (const documentId of restored)
      await this.deps.events.publish({ type: 'restored', documentId, userId });
  }

  /**
   * Deleting a trashed folder for good (`rootId`, or every one of the user's when undefined): the documents
   * that went with it go for good first, then `deleteFolders` (the folders feature's) deletes the folders.
   */
  async deleteFolderForever(
    userId: string,
    rootId: string | undefined,
    deleteFolders: (tx: FolderTransaction) => Promise<void>,
  ): Promise<void> {
    const deleted = await this.deps.database.db.transaction(async (tx) => {
      await deleteFolders(tx);
      return deleteDocumentsTrashedWith(tx, userId, rootId);
    });
    for (const documentId of deleted) await this.deps.events.publish({ type: 'deleted', documentId, userId });
  }

  /** Deletes for good every document whose time in the trash is over (any owner). Returns how many. */
  async purgeTrash(): Promise<number> {
    const purged = await purgeExpiredTrash(this.deps.database.db, this.deps.trashRetentionDays);
    for (const { id, userId } of purged) {
      await this.deps.events.publish({ type: 'deleted', documentId: id, userId });
    }
    return purged.length;
  }

  /** Where the collaboration server loads live documents from and stores them to (it writes no SQL itself). */
  liveStorage(): LiveDocumentStorage {
    const { database } = this.deps;
    return {
      fetch: (documentId) => findLiveState(database.db, documentId),
      claimFirstState: (documentId, state) => claimFirstLiveState(database.db, documentId, state),
      store: (store, options) => this.storeLive(store, options),
    };
  }

  private liveWriteOf(input: UpdateInput, content: ValidContent, title: string | null): LiveWrite {
    return { content: content.doc, title, source: input.source, userId: input.userId };
  }

  private publishReplacing(input: UpdateInput): Promise<void> {
    return this.deps.events.publish({
      type: 'content.replacing',
      documentId: input.documentId,
      userId: input.userId,
      source: input.source,
    });
  }

  private publishTitle(document: DocumentRecord, userId: string): Promise<void> {
    return this.deps.events.publish({
      type: 'title.changed',
      documentId: document.id,
      userId,
      title: document.title,
      version: document.version,
    });
  }

  /** Nothing was written: 404 when the document is missing or not the user's, else 412 (If-Match). */
  private async refuse(input: UpdateInput): Promise<never> {
    if (input.expectedVersions) {
      const exists = await findWritableDocumentHead(this.deps.database.db, input.userId, input.documentId);
      if (exists) {
        throw preconditionFailed('The document has changed since you loaded it (If-Match does not match)');
      }
    }
    throw notFound('Document not found');
  }

  private inTurn<T>(documentId: string, run: () => Promise<T>): Promise<T> {
    const previous = this.liveQueues.get(documentId) ?? Promise.resolve();
    const next = previous.catch(() => {}).then(run);
    this.liveQueues.set(documentId, next);
    const forget = () => {
      if (this.liveQueues.get(documentId) === next) this.liveQueues.delete(documentId);
    };
    next.then(forget, forget);
    return next;
  }
}

/**
 * Where live documents come from and go to, given by the document writer (the way
 * @hocuspocus/extension-database takes fetch/store callbacks); the collaboration server writes no SQL itself.
 */
export interface LiveDocumentStorage {
  /** The stored Yjs state and JSON content, or undefined when the document does not exist. */
  fetch(
    documentId: string,
  ): Promise<{ ydocState: Uint8Array | null; content: unknown; version: number } | undefined>;
  /** Sets the first Yjs state of a document that has none; false when someone else set it first. */
  claimFirstState(documentId: string, state: Uint8Array): Promise<boolean>;
  /** DocumentWriter.storeLive. */
  store: DocumentWriter['storeLive'];
}
