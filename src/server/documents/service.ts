import { and, desc, eq, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { documents, sessions } from '../db/schema';
import { notFound, preconditionFailed } from '../errors';
import { DEFAULT_DOCUMENT_TITLE } from '../../shared/constants';
import { emptyDoc, type RichTextDoc } from '../../shared/schemas/richText';
import { assertCanCreateDocument, limitsEnforced } from '../billing/plan-limits';

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

export interface DocumentsContext {
  db: Db;
  config: Pick<Config, 'STRIPE_SECRET_KEY' | 'ENFORCE_PLAN_LIMITS'>;
  hooks?: readonly DocumentWriteHooks[];
}

export interface DocumentSummaryRecord {
  id: string;
  title: string;
  userId: string;
  createdAt: Date;
  updatedAt: Date;
  isPublic: boolean;
}

export interface DocumentRecord extends DocumentSummaryRecord {
  content: RichTextDoc;
  /** Incremented on every change; the ETag. */
  version: number;
}

const summaryColumns = {
  id: documents.id,
  title: documents.title,
  userId: documents.userId,
  createdAt: documents.createdAt,
  updatedAt: documents.updatedAt,
  isPublic: documents.isPublic,
};

const fullColumns = { ...summaryColumns, content: documents.content, version: documents.version };

type FullRow = Omit<DocumentRecord, 'content'> & { content: unknown };
const asRecord = (row: FullRow): DocumentRecord => row as DocumentRecord;

/**
 * The hot queries as prepared statements, built once per database: building a Drizzle query costs more
 * CPU than running it (bench:api), and PostgreSQL parses and plans a named statement once per connection.
 */
function buildStatements(db: Db) {
  const id = sql.placeholder('id');
  const userId = sql.placeholder('userId');
  const content = sql.placeholder('content');
  const versions = sql.placeholder('versions');
  const ownedBy = and(eq(documents.id, id), eq(documents.userId, userId));
  // The caller's session is still active (not signed out): the check requireUser makes, done in the same
  // statement as the read or write (see requireTokenClaims in plugins/auth.ts).
  const sessionActive = sql`exists (select 1 from ${sessions} where ${sessions.id} = ${sql.placeholder('sessionId')}
    and ${sessions.userId} = ${userId} and ${sessions.revokedAt} is null)`;
  /**
   * One statement for every kind of change: a null title or content keeps the column. A content change
   * clears ydoc_state (see DocumentWriteHooks). `versions` (comma-separated, or null for any) is the
   * If-Match check, in the same statement so that two writers cannot both pass it.
   */
  const update = (withSession: boolean, withContent: boolean, name: string) =>
    db
      .update(documents)
      .set({
        title: sql`coalesce(${sql.placeholder('title')}::text, ${documents.title})`,
        content: sql`coalesce(${content}::jsonb, ${documents.content})`,
        ydocState: sql`case when ${sql.placeholder('replacesContent')}::boolean then null else ${documents.ydocState} end`,
        version: sql`${documents.version} + 1`,
        // Strictly later than the previous value even within one millisecond, so clients see it change.
        updatedAt: sql`greatest(now(), ${documents.updatedAt} + interval '1 millisecond')`,
      })
      .where(
        and(
          ownedBy,
          sql`(${versions}::text is null or ${documents.version}::text = any(string_to_array(${versions}::text, ',')))`,
          withSession ? sessionActive : undefined,
        ),
      )
      // A content replacement already has the new content in hand: reading 10 KB of jsonb back is waste.
      .returning(withContent ? fullColumns : { ...summaryColumns, version: documents.version })
      .prepare(name);
  return {
    list: db
      .select(summaryColumns)
      .from(documents)
      .where(eq(documents.userId, userId))
      .orderBy(desc(documents.updatedAt), desc(documents.createdAt))
      .prepare('qw_documents_list'),
    get: db.select(fullColumns).from(documents).where(ownedBy).limit(1).prepare('qw_documents_get'),
    getInSession: db
      .select(fullColumns)
      .from(documents)
      .where(and(ownedBy, sessionActive))
      .limit(1)
      .prepare('qw_documents_get_in_session'),
    insert: db
      .insert(documents)
      .values({ userId, title: sql.placeholder('title'), content })
      .returning(fullColumns)
      .prepare('qw_documents_insert'),
    update: update(false, true, 'qw_documents_update'),
    updateInSession: update(true, true, 'qw_documents_update_in_session'),
    replaceContent: update(false, false, 'qw_documents_replace_content'),
    replaceContentInSession: update(true, false, 'qw_documents_replace_content_in_session'),
    delete: db
      .delete(documents)
      .where(ownedBy)
      .returning({ id: documents.id })
      .prepare('qw_documents_delete'),
  };
}

const statementCache = new WeakMap<Db, ReturnType<typeof buildStatements>>();
function statements(db: Db): ReturnType<typeof buildStatements> {
  let prepared = statementCache.get(db);
  if (!prepared) {
    prepared = buildStatements(db);
    statementCache.set(db, prepared);
  }
  return prepared;
}

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
  return statements(ctx.db).list.execute({ userId });
}

/** The document if it exists and belongs to the user, else 404. */
export async function getDocument(
  ctx: DocumentsContext,
  userId: string,
  documentId: string,
  options: SessionOption = {},
): Promise<DocumentRecord> {
  const prepared = statements(ctx.db);
  const [row] = options.sessionId
    ? await prepared.getInSession.execute({ id: documentId, userId, sessionId: options.sessionId })
    : await prepared.get.execute({ id: documentId, userId });
  if (!row) throw notFound('Document not found');
  return asRecord(row);
}

/**
 * Creates a document owned by the user. A missing or blank title becomes "Untitled Document" and missing
 * content the empty doc (SPEC §5).
 */
export async function createDocument(
  ctx: DocumentsContext,
  userId: string,
  input: { title?: string | undefined; content?: RichTextDoc | undefined },
): Promise<DocumentRecord> {
  const values = {
    userId,
    title: input.title?.trim() || DEFAULT_DOCUMENT_TITLE,
    content: input.content ?? emptyDoc(),
  };
  // Plan limits: the one place a new document can be refused. assertCanCreateDocument locks the user's
  // row inside this transaction, so concurrent creates cannot both slip under the limit.
  if (limitsEnforced(ctx.config)) {
    return ctx.db.transaction(async (tx) => {
      await assertCanCreateDocument({ config: ctx.config, db: tx }, userId);
      const [row] = await tx.insert(documents).values(values).returning(fullColumns);
      return asRecord(row!);
    });
  }
  const [row] = await statements(ctx.db).insert.execute(values);
  return asRecord(row!);
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
  let row: FullRow | undefined;
  if (!expectedVersions || expectedVersions.length > 0) {
    const prepared = statements(ctx.db);
    const replacing = changes.content !== undefined;
    const statement = replacing
      ? sessionId
        ? prepared.replaceContentInSession
        : prepared.replaceContent
      : sessionId
        ? prepared.updateInSession
        : prepared.update;
    const [updated] = await statement.execute({
      id: documentId,
      userId,
      sessionId,
      title: changes.title?.trim() ?? null,
      content: changes.content !== undefined ? JSON.stringify(changes.content) : null,
      replacesContent: changes.content !== undefined,
      versions: expectedVersions ? expectedVersions.join(',') : null,
    });
    // What was stored is exactly changes.content (serialized above), so it is not read back.
    row = updated && ('content' in updated ? updated : { ...updated, content: changes.content });
  }
  if (!row) {
    if (expectedVersions) await getDocument(ctx, userId, documentId); // 404 when missing or not the user's
    if (expectedVersions) {
      throw preconditionFailed('The document has changed since you loaded it (If-Match does not match)');
    }
    throw notFound('Document not found');
  }
  const document = asRecord(row);
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
  if (!ctx.hooks?.length) return;
  const event = { documentId: document.id, userId, version: document.version };
  for (const hook of ctx.hooks) {
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
  const [row] = await statements(ctx.db).delete.execute({ id: documentId, userId });
  if (!row) throw notFound('Document not found');
  for (const hook of ctx.hooks ?? []) await hook.onDeleted?.({ documentId, userId });
}
