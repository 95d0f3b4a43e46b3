import type { ServerDependencies } from '../dependencies';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import {
  findReadableDocument,
  findReadableDocumentHead,
  findLiveStateFor,
  mayOpenLive,
  listDocumentsOf,
  type DocumentHeadRecord,
  type DocumentRecord,
  type DocumentSummaryRecord,
} from './repository';
import { pageOf, type PageRequest } from '../pagination';

export type { DocumentHeadRecord, DocumentRecord, DocumentSummaryRecord } from './repository';

/**
 * Reading documents: the owner's, and those a member's role lets them read (policy.ts). Every change goes through the document writer
 * (writer.ts, `ctx.documentWriter`). No HTTP here: callers map results to responses. Another user's document
 * and a missing one are the same thing to a caller: not found.
 */

/**
 * The check every new document passes: the plan limits (billing/plan-limits.ts, handed in by app.ts), so
 * documents knows nothing of plans and billing asks documents only how many a user owns.
 */
export interface DocumentCreationCheck {
  /** Whether any limit applies on this server; where none does, a create needs no transaction. */
  readonly applies: boolean;
  /**
   * Refuses (throws an AppError) when the user may not own one more document (or `adding` more). Runs inside the creating
   * transaction (`db`), where it may lock the user's row so that concurrent creates cannot both slip under.
   */
  assertMayCreate(db: Pick<Db, 'select' | 'execute'>, userId: string, adding?: number): Promise<void>;
}

export type DocumentsContext = Pick<ServerDependencies, 'db' | 'documentWriter'>;

export interface SessionOption {
  /**
   * Also require this session of the user to be active, in the same statement. When the result is "not
   * found" (404, or 412 for a write) the caller must run the full session check (requireUser) to answer
   * 401 for a signed-out session instead.
   */
  sessionId?: string | undefined;
}

/** The user's documents for the dashboard, most recently updated first, without content. */
/** A page of the user's own documents, most recently changed first, and the cursor of the next page. */
export async function listDocuments(
  ctx: DocumentsContext,
  userId: string,
  page: PageRequest,
): Promise<{ rows: DocumentSummaryRecord[]; next: string | undefined }> {
  const rows = await listDocumentsOf(ctx.db, userId, { limit: page.limit + 1, after: page.after });
  return pageOf(rows, page.limit, (row) => ({ at: row.place, key: row.id }));
}

/** The document if it exists and the user may read it (owner or member), else 404. */
export async function getDocument(
  ctx: DocumentsContext,
  userId: string,
  documentId: string,
  options: SessionOption = {},
): Promise<DocumentRecord> {
  const document = await findReadableDocument(ctx.db, userId, documentId, options.sessionId);
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
  options: SessionOption = {},
): Promise<DocumentHeadRecord> {
  const document = await findReadableDocumentHead(ctx.db, userId, documentId, options.sessionId);
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
    if (!(await mayOpenLive(ctx.db, userId, documentId, options.sessionId)))
      throw notFound('Document not found');
    // Unloaded meanwhile (its last editor left): what was stored, below.
    const live = options.live.currentState(documentId);
    if (live) return live;
  }
  const row = await findLiveStateFor(ctx.db, userId, documentId, options.sessionId);
  if (!row) throw notFound('Document not found');
  return options.live.currentState(documentId) ?? row.ydocState;
}
