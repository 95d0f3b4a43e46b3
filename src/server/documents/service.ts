import type { ServerDependencies } from '../dependencies';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { LiveDocumentStorage } from '../collab/persistence-extension';
import { badRequest, notFound, preconditionFailed } from '../errors';
import { DEFAULT_DOCUMENT_TITLE } from '../../shared/constants';
import { emptyDoc, sanitizeDocContent, type RichTextDoc } from '../../shared/schemas/richText';
import { assertCanCreateDocument, limitsEnforced } from '../billing/plan-limits';
import {
  claimFirstLiveState,
  deleteOwnedDocument,
  findLiveState,
  findOwnedDocument,
  findOwnedDocumentHead,
  findOwnedLiveState,
  storeLiveStates,
  insertDocument,
  listDocumentsOf,
  updateOwnedDocument,
  type DocumentHeadRecord,
  type DocumentRecord,
  type DocumentSummaryRecord,
} from './repository';

export type { DocumentHeadRecord, DocumentRecord, DocumentSummaryRecord } from './repository';

/**
 * The documents rules (SPEC §5, §7): owner-only, content already validated and sanitized by the shared
 * rich-text schema (routes parse request bodies with it). No HTTP here: callers map results to responses.
 * Another user's document and a missing one are the same thing to a caller: not found.
 */

/**
 * Hooks for other areas that must see REST writes to documents. `app.documentHooks` (app.ts) holds the
 * list; an area registers by pushing an object, e.g. in its plugin:
 *
 *   app.documentHooks.push({ onContentReplaced: ({ documentId, content }) => liveDocs.replace(documentId, content) });
 *
 * Every hook runs after the change is committed, in registration order, and is awaited; an error it
 * throws fails the request (500), because for the collaboration layer a failed apply means the live
 * document would later overwrite the write.
 *
 * Collaboration contract: a content replacement through this service sets `ydoc_state` to NULL in the same
 * UPDATE as the new `content`, so a document that is not live is rebuilt from the JSON on its next load;
 * a document that IS live must be updated by `onContentReplaced` (otherwise its next store would write the
 * old text back). `version` is incremented by every write (the ETag).
 */
export interface DocumentWriteHooks {
  /**
   * Before a REST write (or an import or restore through updateDocument) replaces a document's content:
   * the database still holds the old content (read it with getDocument). Runs before the write, awaited;
   * throwing refuses the write. Version history takes its "before" snapshot here.
   */
  onBeforeContentReplaced?(event: { documentId: string; userId: string }): void | Promise<void>;
  /**
   * The last editor left a live document whose content changed while it was live; everything is stored.
   * Called once per such session of live editing, after the final store; errors are logged, not raised.
   */
  onLiveDocumentUnloaded?(event: { documentId: string }): void | Promise<void>;
  onContentReplaced?(event: DocumentWriteEvent & { content: RichTextDoc }): void | Promise<void>;
  onTitleChanged?(event: DocumentWriteEvent & { title: string }): void | Promise<void>;
  onDeleted?(event: { documentId: string; userId: string }): void | Promise<void>;
}

export interface DocumentWriteEvent {
  documentId: string;
  /** The user whose request made the change (the owner). */
  userId: string;
  /** The document's version after the change. */
  version: number;
}

export type DocumentsContext = Pick<ServerDependencies, 'db'> & {
  config: Pick<Config, 'STRIPE_SECRET_KEY' | 'ENFORCE_PLAN_LIMITS'>;
  documentHooks?: readonly DocumentWriteHooks[];
};

export interface SessionOption {
  /**
   * Also require this session of the user to be active, in the same statement. When the result is "not
   * found" (404, or 412 for a write) the caller must run the full session check (requireUser) to answer
   * 401 for a signed-out session instead.
   */
  sessionId?: string | undefined;
}

/** The user's documents for the dashboard, most recently updated first, without content. */
export async function listDocuments(ctx: DocumentsContext, userId: string): Promise<DocumentSummaryRecord[]> {
  return listDocumentsOf(ctx.db, userId);
}

/** The document if it exists and belongs to the user, else 404. */
export async function getDocument(
  ctx: DocumentsContext,
  userId: string,
  documentId: string,
  options: SessionOption = {},
): Promise<DocumentRecord> {
  const document = await findOwnedDocument(ctx.db, userId, documentId, options.sessionId);
  if (!document) throw notFound('Document not found');
  return document;
}

/**
 * The user's document without its content: the editor opening it takes the content from this browser's offline
 * copy or the Yjs state (getDocumentState), not a second time as JSON. 404 like getDocument.
 */
export async function getDocumentHead(
  ctx: DocumentsContext,
  userId: string,
  documentId: string,
  options: { sessionId: string },
): Promise<DocumentHeadRecord> {
  const document = await findOwnedDocumentHead(ctx.db, userId, documentId, options.sessionId);
  if (!document) throw notFound('Document not found');
  return document;
}

/** What getDocumentState asks of the documents live on this instance (collab/live-documents.ts). */
export interface LiveStates {
  hasCurrentState(documentId: string): boolean;
  currentState(documentId: string): Uint8Array | undefined;
}

/**
 * The Yjs state an editor opening the user's document starts from (see docs/collaboration.md, "Opening from the
 * server's state over HTTP"): the live document's when this instance holds it, else the stored one; null when the
 * document has never been live (its first state is made by the collaboration server, in one place). 404 like
 * getDocument. A live document is checked for ownership without reading its stored state, which on a book is
 * most of a megabyte that would be thrown away.
 */
export async function getDocumentState(
  ctx: DocumentsContext,
  userId: string,
  documentId: string,
  options: { sessionId: string; live: LiveStates },
): Promise<Uint8Array | null> {
  if (options.live.hasCurrentState(documentId)) {
    const owned = await findOwnedDocumentHead(ctx.db, userId, documentId, options.sessionId);
    if (!owned) throw notFound('Document not found');
    // Unloaded meanwhile (its last editor left): what was stored, below.
    const live = options.live.currentState(documentId);
    if (live) return live;
  }
  const row = await findOwnedLiveState(ctx.db, userId, documentId, options.sessionId);
  if (!row) throw notFound('Document not found');
  return options.live.currentState(documentId) ?? row.ydocState;
}

/**
 * Creates a document owned by `ownerId` (REST create, imports). `content` is checked by the content
 * validator (refused with 400 `invalid_content`); a missing or blank title becomes "Untitled Document" and
 * missing content the empty doc (SPEC §5). Plan limits apply (402-style refusal from assertCanCreateDocument).
 */
export async function createDocument(
  ctx: DocumentsContext,
  input: { ownerId: string; title?: string | undefined; content?: unknown },
): Promise<DocumentRecord> {
  const values = {
    userId: input.ownerId,
    title: input.title?.trim() || DEFAULT_DOCUMENT_TITLE,
    content: input.content === undefined ? emptyDoc() : validContent(input.content),
  };
  // Plan limits: the one place a new document can be refused. assertCanCreateDocument locks the user's
  // row inside this transaction, so concurrent creates cannot both slip under the limit.
  if (limitsEnforced(ctx.config)) {
    return ctx.db.transaction(async (tx) => {
      await assertCanCreateDocument({ config: ctx.config, db: tx }, input.ownerId);
      return insertDocument(tx, values, { prepared: false });
    });
  }
  return insertDocument(ctx.db, values);
}

/** The content validator in refuse mode, as the API's 400. */
function validContent(content: unknown): RichTextDoc {
  const result = sanitizeDocContent(content);
  if (!result.ok) throw badRequest(result.message, 'invalid_content');
  return result.doc;
}

export interface DocumentChanges {
  title?: string | undefined;
  content?: RichTextDoc | undefined;
}

/**
 * Applies a change to the user's document and returns the new row (version + 1, new updated_at).
 * With `expectedVersions` (from If-Match) the write happens only if the current version is one of them,
 * checked in the same UPDATE statement, so two writers cannot both pass; otherwise 412 and nothing changes.
 */
export async function updateDocument(
  ctx: DocumentsContext,
  userId: string,
  documentId: string,
  changes: DocumentChanges,
  options: { expectedVersions?: readonly number[] | undefined } & SessionOption = {},
): Promise<DocumentRecord> {
  const { expectedVersions, sessionId } = options;
  let document: DocumentRecord | undefined;
  if (changes.content !== undefined) {
    for (const hook of ctx.documentHooks ?? []) await hook.onBeforeContentReplaced?.({ documentId, userId });
  }
  if (!expectedVersions || expectedVersions.length > 0) {
    const updated = await updateOwnedDocument(ctx.db, userId, documentId, {
      sessionId,
      title: changes.title?.trim() ?? null,
      content: changes.content !== undefined ? JSON.stringify(changes.content) : null,
      versions: expectedVersions ? expectedVersions.join(',') : null,
    });
    // What was stored is exactly changes.content (serialized above), so it is not read back.
    document =
      updated &&
      ('content' in updated ? (updated as DocumentRecord) : { ...updated, content: changes.content! });
  }
  if (!document) {
    if (expectedVersions) await getDocument(ctx, userId, documentId); // 404 when missing or not the user's
    if (expectedVersions) {
      throw preconditionFailed('The document has changed since you loaded it (If-Match does not match)');
    }
    throw notFound('Document not found');
  }
  await applyWriteHooks(ctx, userId, document, changes);
  return document;
}

/** Runs the registered hooks for a committed change (see DocumentWriteHooks). */
async function applyWriteHooks(
  ctx: DocumentsContext,
  userId: string,
  document: DocumentRecord,
  changes: DocumentChanges,
): Promise<void> {
  if (!ctx.documentHooks?.length) return;
  const event = { documentId: document.id, userId, version: document.version };
  for (const hook of ctx.documentHooks) {
    if (changes.content !== undefined)
      await hook.onContentReplaced?.({ ...event, content: document.content });
    if (changes.title !== undefined) await hook.onTitleChanged?.({ ...event, title: document.title });
  }
}

/** Deletes the user's document; 404 when it is missing or not theirs. */
export async function deleteDocument(
  ctx: DocumentsContext,
  userId: string,
  documentId: string,
): Promise<void> {
  if (!(await deleteOwnedDocument(ctx.db, userId, documentId))) throw notFound('Document not found');
  for (const hook of ctx.documentHooks ?? []) await hook.onDeleted?.({ documentId, userId });
}

/**
 * Where the collaboration server loads live documents from and stores them to (its persistence gets these
 * callbacks; it writes no SQL of its own). The content it stores has been through the content validator
 * (repairLiveContent). `onUnloadedAfterChanges` runs the hooks' onLiveDocumentUnloaded.
 */
export function liveDocumentStorage(
  database: Database,
  hooks: readonly DocumentWriteHooks[] = [],
): LiveDocumentStorage {
  return {
    fetch: (documentId) => findLiveState(database.db, documentId),
    claimFirstState: (documentId, state) => claimFirstLiveState(database.db, documentId, state),
    storeMany: (stores) => storeLiveStates(database, stores),
    onUnloadedAfterChanges: async (documentId) => {
      for (const hook of hooks) await hook.onLiveDocumentUnloaded?.({ documentId });
    },
  };
}
