import { and, count, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import { documentMembers, documents, folders } from '../db/schema';
import { sessionSignedInExists } from '../plugins';
import { afterInDescendingOrder, micros, type PageAfter } from '../pagination';
import { MAX_FOLDER_DEPTH } from '../../shared/constants';
import type { RichTextDoc } from '../../shared/schemas/richText';
import { documentsWith, folderRolesOnDocument, ownDocuments, ownTrashedDocuments } from './policy';

/**
 * Every SQL statement on the `documents` table. Callers (the documents service, the collaboration
 * persistence, sharing, the shared page's head, AI, plan limits) go through these functions; none writes SQL
 * on `documents` itself. Content reaching `insertDocument`, `updateDocument` and `storeLiveStates` has passed
 * the content validator (src/shared/editor/validate.ts): the service and the collaboration server see to it.
 *
 * The version rule (the ETag) lives here once (versionRule): every change of title or content increments
 * `version` and moves `updated_at`; a store of a live document whose content did not change keeps both.
 */

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

/** A document without its content (the editor's opening, which takes the content from elsewhere). */
export type DocumentHeadRecord = Omit<DocumentRecord, 'content'>;

const summaryColumns = {
  id: documents.id,
  title: documents.title,
  userId: documents.userId,
  createdAt: documents.createdAt,
  updatedAt: documents.updatedAt,
  isPublic: documents.isPublic,
};

const headColumns = { ...summaryColumns, version: documents.version };

/**
 * The version rule, the one place it is written, as SQL for a SET clause over the row `row` (a table name or
 * alias): when `changed` (an SQL condition) holds, version + 1 and updated_at strictly later than before (even
 * within one millisecond, so clients see it move); otherwise both stay. Every UPDATE of content or title uses
 * it: the owner's change of a document nobody has open (always a change) and the live store (a change when the
 * content or title differs, or the state holds a write of the document writer).
 */
function versionRule(row: string, changed: string): { version: string; updatedAt: string } {
  return {
    version: `case when ${changed} then ${row}.version + 1 else ${row}.version end`,
    updatedAt: `case when ${changed} then greatest(now(), ${row}.updated_at + interval '1 millisecond') else ${row}.updated_at end`,
  };
}

/** The owner's change: always a change (a PATCH moves the ETag even when it sends what is there). */
const OWNER_CHANGE = versionRule('"documents"', 'true');
const fullColumns = { ...headColumns, content: documents.content };

type FullRow = DocumentHeadRecord & { content: unknown };
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
  // Every statement reads and writes only what the access policy's condition lets the user do: the owner
  // everything, a member what their role includes.
  const readableBy = and(eq(documents.id, id), documentsWith(userId, 'read'));
  const liveFor = and(eq(documents.id, id), documentsWith(userId, 'openLive'));
  const writableBy = and(eq(documents.id, id), documentsWith(userId, 'write'));
  // The caller's session is still active (not signed out): the check requireUser makes, done in the same
  // statement as the read or write (see requireTokenClaims in plugins/auth.ts).
  const sessionActive = sessionSignedInExists(sql.placeholder('sessionId'), userId);
  /**
   * One statement for every change of a document nobody has open: a null title or content keeps the column. A
   * content change clears ydoc_state (the next load rebuilds it from the JSON; a live document is changed
   * through its Y.Doc instead, see writer.ts). `versions` (comma-separated, or null for any) is the If-Match
   * check, in the same statement so that two writers cannot both pass it.
   */
  const update = (withSession: boolean, withContent: boolean, name: string) =>
    db
      .update(documents)
      .set({
        title: sql`coalesce(${sql.placeholder('title')}::text, ${documents.title})`,
        content: sql`coalesce(${content}::jsonb, ${documents.content})`,
        ydocState: sql`case when ${sql.placeholder('replacesContent')}::boolean then null else ${documents.ydocState} end`,
        version: sql.raw(OWNER_CHANGE.version),
        updatedAt: sql.raw(OWNER_CHANGE.updatedAt),
      })
      .where(
        and(
          writableBy,
          sql`(${versions}::text is null or ${documents.version}::text = any(string_to_array(${versions}::text, ',')))`,
          withSession ? sessionActive : undefined,
        ),
      )
      // A content replacement already has the new content in hand: reading 10 KB of jsonb back is waste.
      .returning(withContent ? fullColumns : headColumns)
      .prepare(name);
  return {
    get: db.select(fullColumns).from(documents).where(readableBy).limit(1).prepare('qw_documents_get'),
    getInSession: db
      .select(fullColumns)
      .from(documents)
      .where(and(readableBy, sessionActive))
      .limit(1)
      .prepare('qw_documents_get_in_session'),
    head: db.select(headColumns).from(documents).where(readableBy).limit(1).prepare('qw_documents_head'),
    headInSession: db
      .select(headColumns)
      .from(documents)
      .where(and(readableBy, sessionActive))
      .limit(1)
      .prepare('qw_documents_head_in_session'),
    writableHead: db
      .select(headColumns)
      .from(documents)
      .where(writableBy)
      .limit(1)
      .prepare('qw_documents_writable_head'),
    writableHeadInSession: db
      .select(headColumns)
      .from(documents)
      .where(and(writableBy, sessionActive))
      .limit(1)
      .prepare('qw_documents_writable_head_in_session'),
    liveInSession: db
      .select({ id: documents.id })
      .from(documents)
      .where(and(liveFor, sessionActive))
      .limit(1)
      .prepare('qw_documents_live_in_session'),
    stateInSession: db
      .select({ ydocState: documents.ydocState })
      .from(documents)
      .where(and(liveFor, sessionActive))
      .limit(1)
      .prepare('qw_documents_state_in_session'),
    insert: db
      .insert(documents)
      .values({ userId, title: sql.placeholder('title'), content })
      .returning(fullColumns)
      .prepare('qw_documents_insert'),
    update: update(false, true, 'qw_documents_update'),
    updateInSession: update(true, true, 'qw_documents_update_in_session'),
    replaceContent: update(false, false, 'qw_documents_replace_content'),
    replaceContentInSession: update(true, false, 'qw_documents_replace_content_in_session'),
    role: db
      .select({
        ownerId: documents.userId,
        // The document's own member row and every folder membership above it; the policy takes the strongest.
        memberRoles: sql<string[]>`array(select ${documentMembers.role} from ${documentMembers} where ${and(
          eq(documentMembers.documentId, documents.id),
          eq(documentMembers.userId, userId),
        )} union all ${folderRolesOnDocument(userId)})`,
      })
      .from(documents)
      .where(and(eq(documents.id, id), isNull(documents.trashedAt)))
      .limit(1)
      .prepare('qw_documents_role'),
    owner: db
      .select({ userId: documents.userId })
      .from(documents)
      .where(eq(documents.id, id))
      .limit(1)
      .prepare('qw_documents_owner'),
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

// ---------------------------------------------------------------------------------------------------------
// CRUD (REST): the owner's, and what a member's role allows

/**
 * The user's own documents, most recently changed first (ties by id), `limit` of them after `after` (a page of
 * the REST list; pagination.ts). The rows carry their place for the next page's cursor.
 */
export function listDocumentsOf(
  db: Db,
  userId: string,
  page: { limit: number; after?: PageAfter | undefined },
): Promise<(DocumentSummaryRecord & { place: string })[]> {
  return db
    .select({ ...summaryColumns, place: micros(documents.updatedAt) })
    .from(documents)
    .where(
      page.after
        ? and(ownDocuments(userId), afterInDescendingOrder(documents.updatedAt, documents.id, page.after))
        : ownDocuments(userId),
    )
    .orderBy(desc(documents.updatedAt), desc(documents.id))
    .limit(page.limit);
}

/**
 * The document when the user may read it (theirs, or they are a member), optionally only while `sessionId` is
 * an active session of theirs.
 */
export async function findReadableDocument(
  db: Db,
  userId: string,
  documentId: string,
  sessionId?: string,
): Promise<DocumentRecord | undefined> {
  const prepared = statements(db);
  const [row] = sessionId
    ? await prepared.getInSession.execute({ id: documentId, userId, sessionId })
    : await prepared.get.execute({ id: documentId, userId });
  return row && asRecord(row);
}

/**
 * The document without its content when the user may read it, optionally only while `sessionId` is an active
 * session of theirs.
 */
export async function findReadableDocumentHead(
  db: Db,
  userId: string,
  documentId: string,
  sessionId?: string,
): Promise<DocumentHeadRecord | undefined> {
  const prepared = statements(db);
  const [row] = sessionId
    ? await prepared.headInSession.execute({ id: documentId, userId, sessionId })
    : await prepared.head.execute({ id: documentId, userId });
  return row;
}

/**
 * The document without its content when the user may write it (theirs, or they are an editor), optionally only
 * while `sessionId` is an active session of theirs.
 */
export async function findWritableDocumentHead(
  db: Db,
  userId: string,
  documentId: string,
  sessionId?: string,
): Promise<DocumentHeadRecord | undefined> {
  const prepared = statements(db);
  const [row] = sessionId
    ? await prepared.writableHeadInSession.execute({ id: documentId, userId, sessionId })
    : await prepared.writableHead.execute({ id: documentId, userId });
  return row;
}

/** Whether the user may open the document live, while `sessionId` is an active session of theirs. */
export async function mayOpenLive(
  db: Db,
  userId: string,
  documentId: string,
  sessionId: string,
): Promise<boolean> {
  const [row] = await statements(db).liveInSession.execute({ id: documentId, userId, sessionId });
  return row !== undefined;
}

/**
 * The stored Yjs state of a document the user may open live, while `sessionId` is an active session of theirs:
 * `{ ydocState }` (null before the document was first live), or undefined when there is no such document.
 */
export async function findLiveStateFor(
  db: Db,
  userId: string,
  documentId: string,
  sessionId: string,
): Promise<{ ydocState: Uint8Array | null } | undefined> {
  const [row] = await statements(db).stateInSession.execute({ id: documentId, userId, sessionId });
  return row;
}

export async function insertDocument(
  db: Db,
  values: { userId: string; title: string; content: RichTextDoc },
  options: { prepared?: boolean } = {},
): Promise<DocumentRecord> {
  // Inside a transaction (plan limits) the prepared statement of the pool cannot be used.
  const [row] =
    options.prepared === false
      ? await db.insert(documents).values(values).returning(fullColumns)
      : await statements(db).insert.execute(values);
  return asRecord(row!);
}

export interface DocumentUpdate {
  title: string | null;
  /** The new content as JSON text, or null to keep it. */
  content: string | null;
  /** Comma-separated versions the row must have (If-Match), or null for any. */
  versions: string | null;
  sessionId?: string | undefined;
}

/**
 * Applies a change to a document the user may write (theirs, or they are an editor); undefined when it is
 * missing, not writable by them, its version is not
 * among `versions`, or the session is not active. A content replacement does not read the content back.
 */
export async function updateOwnedDocument(
  db: Db,
  userId: string,
  documentId: string,
  change: DocumentUpdate,
): Promise<(Omit<DocumentRecord, 'content'> & { content?: unknown }) | undefined> {
  const prepared = statements(db);
  const replacing = change.content !== null;
  const statement = replacing
    ? change.sessionId
      ? prepared.replaceContentInSession
      : prepared.replaceContent
    : change.sessionId
      ? prepared.updateInSession
      : prepared.update;
  const [row] = await statement.execute({
    id: documentId,
    userId,
    sessionId: change.sessionId,
    title: change.title,
    content: change.content,
    replacesContent: replacing,
    versions: change.versions,
  });
  return row;
}

/** The content and version of a document outside the trash, whoever asks (the caller decided access). */
export async function findContentForChange(
  db: Db,
  documentId: string,
): Promise<{ content: unknown; version: number } | undefined> {
  const [row] = await db
    .select({ content: documents.content, version: documents.version })
    .from(documents)
    .where(and(eq(documents.id, documentId), isNull(documents.trashedAt)))
    .limit(1);
  return row;
}

/**
 * Replaces the content of a document nobody has open while it still has `version` (compare-and-set); the
 * version rule applies and ydoc_state is cleared, as for any content change. False when the version moved.
 */
export async function replaceContentAtVersion(
  db: Db,
  documentId: string,
  content: RichTextDoc,
  version: number,
): Promise<{ version: number } | undefined> {
  const [row] = await db
    .update(documents)
    .set({
      content,
      ydocState: null,
      version: sql.raw(OWNER_CHANGE.version),
      updatedAt: sql.raw(OWNER_CHANGE.updatedAt),
    })
    .where(and(eq(documents.id, documentId), isNull(documents.trashedAt), eq(documents.version, version)))
    .returning({ version: documents.version });
  return row;
}

// ---------------------------------------------------------------------------------------------------------
// The trash: a trashed document is outside ownDocuments, so every statement above leaves it alone.

/** Moves the user's document to the trash; false when it is missing, not theirs or already there. */
export async function trashOwnedDocument(db: Db, userId: string, documentId: string): Promise<boolean> {
  const rows = await db
    .update(documents)
    .set({ trashedAt: sql`now()` })
    .where(and(eq(documents.id, documentId), ownDocuments(userId)))
    .returning({ id: documents.id });
  return rows.length > 0;
}

/** Brings the user's trashed document back (its version and content as they were); false when not in their trash. */
/** Whether the document is in the user's trash. */
export async function isInTrashOf(
  db: Pick<Db, 'select'>,
  userId: string,
  documentId: string,
): Promise<boolean> {
  const rows = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, documentId), ownTrashedDocuments(userId)))
    .limit(1);
  return rows.length > 0;
}

export async function restoreTrashedDocument(
  db: Pick<Db, 'update'>,
  userId: string,
  documentId: string,
): Promise<boolean> {
  const rows = await db
    .update(documents)
    .set({
      trashedAt: null,
      trashedWith: null,
      // Its folder may have gone meanwhile (to the trash, or for good): then it comes back at the top level.
      folderId: sql`case when exists (select 1 from ${folders} where ${folders.id} = ${documents.folderId}
        and ${folders.trashedAt} is null) then ${documents.folderId} end`,
    })
    .where(and(eq(documents.id, documentId), ownTrashedDocuments(userId)))
    .returning({ id: documents.id });
  return rows.length > 0;
}

/**
 * Deletes the user's trashed documents for good (one, or all when `documentId` is undefined); their versions,
 * suggestions and chat go with them (foreign keys). Returns the ids deleted.
 */
export async function deleteTrashedDocuments(db: Db, userId: string, documentId?: string): Promise<string[]> {
  const rows = await db
    .delete(documents)
    .where(
      and(documentId === undefined ? undefined : eq(documents.id, documentId), ownTrashedDocuments(userId)),
    )
    .returning({ id: documents.id });
  return rows.map((row) => row.id);
}

export interface TrashedDocumentRow {
  id: string;
  title: string;
  trashedAt: Date;
  total: number;
}

/** One page of the user's trash, most recently trashed first, with how many it holds in all. */
export function listTrashOf(
  db: Db,
  userId: string,
  limit: number,
  offset: number,
): Promise<TrashedDocumentRow[]> {
  return (
    db
      .select({
        id: documents.id,
        title: documents.title,
        trashedAt: sql<Date>`${documents.trashedAt}`.mapWith(documents.trashedAt),
        total: sql<number>`count(*) over ()`.mapWith(Number),
      })
      .from(documents)
      // What went with a folder is listed under that folder (GET /api/trash/folders).
      .where(and(ownTrashedDocuments(userId), isNull(documents.trashedWith)))
      .orderBy(desc(documents.trashedAt), documents.id)
      .limit(limit)
      .offset(offset)
  );
}

/**
 * Deletes, in one statement, every document that has been in the trash for `retentionDays` days or more
 * (whoever owns it). Running it twice, or on several instances at once, deletes each document once.
 */
export async function purgeExpiredTrash(
  db: Db,
  retentionDays: number,
): Promise<{ id: string; userId: string }[]> {
  return db
    .delete(documents)
    .where(lt(documents.trashedAt, sql`now() - make_interval(days => ${retentionDays})`))
    .returning({ id: documents.id, userId: documents.userId });
}

// ---------------------------------------------------------------------------------------------------------
// Ownership (access rules) and counts (plan limits, billing admin)

/**
 * What decides a signed-in user's role on a document outside the trash (policy.ts roleOfUser): its owner and
 * the user's member roles (the document's own and its folders'); undefined when there is no such document or it
 * is in the trash.
 */
export async function findRoleFacts(
  db: Db,
  userId: string,
  documentId: string,
): Promise<{ ownerId: string; memberRoles: string[] } | undefined> {
  const [row] = await statements(db).role.execute({ id: documentId, userId });
  return row;
}

/** The owner's user id, or undefined when the document does not exist. */
export async function findDocumentOwner(db: Db, documentId: string): Promise<string | undefined> {
  const [row] = await statements(db).owner.execute({ id: documentId });
  return row?.userId;
}

/**
 * One row per document, and one more per member role of an asked user on it: their document member row, and
 * their folder memberships on the document's folder or any folder above it (the walk of policy.ts
 * foldersUpFrom, written out here).
 */
const DOCUMENT_OWNERS_SQL = `select d.id, d.user_id, m.user_id as member_id, m.role as member_role
  from documents d
  left join lateral (
    select dm.user_id, dm.role from document_members dm
      where dm.document_id = d.id and dm.user_id = any(string_to_array($2::text, ',')::uuid[])
    union all
    select fm.user_id, fm.role from folder_members fm
      where d.folder_id is not null
        and fm.user_id = any(string_to_array($2::text, ',')::uuid[])
        and fm.folder_id in (
          with recursive up(id, parent_id) as (
            select f.id, f.parent_id from folders f where f.id = d.folder_id and f.trashed_at is null
            union
            select f.id, f.parent_id from folders f join up on f.id = up.parent_id where f.trashed_at is null
          ) select id from up)
  ) m on true
  where d.id = any(string_to_array($1::text, ',')::uuid[]) and d.trashed_at is null`;

/** The owners of documents, and the member roles of the users asked about, in one statement. */
export interface DocumentRoleFacts {
  owners: Map<string, string>;
  /** `${documentId}\u0000${userId}` → the user's member roles on it (the document's own and its folders'). */
  memberRoles: Map<string, string[]>;
}

/**
 * Owners of many documents outside the trash, and the given users' member roles on them, in one small statement
 * (the collaboration access sweep runs it every second). Raw SQL on purpose: with PGlite each statement through
 * Drizzle cost about twice as much.
 */
export async function findDocumentRoleFacts(
  database: Database,
  documentIds: string[],
  userIds: string[],
): Promise<DocumentRoleFacts> {
  const rows = (await database.exec(DOCUMENT_OWNERS_SQL, [documentIds.join(','), userIds.join(',')])) as {
    id: string;
    user_id: string;
    member_id: string | null;
    member_role: string | null;
  }[];
  const facts: DocumentRoleFacts = { owners: new Map(), memberRoles: new Map() };
  for (const row of rows) {
    facts.owners.set(row.id, row.user_id);
    if (!row.member_id || !row.member_role) continue;
    const key = `${row.id}\u0000${row.member_id}`;
    const roles = facts.memberRoles.get(key);
    if (roles) roles.push(row.member_role);
    else facts.memberRoles.set(key, [row.member_role]);
  }
  return facts;
}

/** How many documents the user has outside the trash (what plan limits count). */
export async function countDocumentsOf(db: Pick<Db, 'select'>, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(documents).where(ownDocuments(userId));
  return row?.n ?? 0;
}

/** Documents outside the trash, per user. */
export async function countDocumentsByUser(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .select({ userId: documents.userId, n: count() })
    .from(documents)
    .where(isNull(documents.trashedAt))
    .groupBy(documents.userId);
  return new Map(rows.map((row) => [row.userId, row.n]));
}

// ---------------------------------------------------------------------------------------------------------
// Sharing

const shareColumns = {
  id: documents.id,
  isPublic: documents.isPublic,
  shareAllowEditing: documents.shareAllowEditing,
  shareAllowSuggesting: documents.shareAllowSuggesting,
  shareAllowCommenting: documents.shareAllowCommenting,
  shareExpiresAt: documents.shareExpiresAt,
  sharePasswordHash: documents.sharePasswordHash,
  shareLinkKey: documents.shareLinkKey,
  shareShowSuggestions: documents.shareShowSuggestions,
};

export type ShareRow = Pick<
  typeof documents.$inferSelect,
  | 'id'
  | 'isPublic'
  | 'shareAllowEditing'
  | 'shareAllowSuggesting'
  | 'shareAllowCommenting'
  | 'shareExpiresAt'
  | 'sharePasswordHash'
  | 'shareLinkKey'
  | 'shareShowSuggestions'
>;

export type ShareChanges = Partial<
  Pick<
    typeof documents.$inferInsert,
    | 'isPublic'
    | 'shareAllowEditing'
    | 'shareAllowSuggesting'
    | 'shareAllowCommenting'
    | 'shareExpiresAt'
    | 'sharePasswordHash'
    | 'shareLinkKey'
    | 'shareShowSuggestions'
  >
>;

export async function findShareSettings(
  db: Db,
  userId: string,
  documentId: string,
): Promise<ShareRow | undefined> {
  const [row] = await db
    .select(shareColumns)
    .from(documents)
    .where(and(eq(documents.id, documentId), ownDocuments(userId)));
  return row;
}

export async function updateShareSettings(
  db: Db,
  userId: string,
  documentId: string,
  changes: ShareChanges,
): Promise<ShareRow | undefined> {
  const [row] = await db
    .update(documents)
    .set(changes)
    .where(and(eq(documents.id, documentId), ownDocuments(userId)))
    .returning(shareColumns);
  return row;
}

/** A document as a share-link visitor may be shown it, with its share settings (whoever owns it). */
export async function findSharedDocument(db: Db, documentId: string) {
  const [row] = await db
    .select({
      ...shareColumns,
      title: documents.title,
      content: documents.content,
      updatedAt: documents.updatedAt,
      trashedAt: documents.trashedAt,
    })
    .from(documents)
    .where(eq(documents.id, documentId));
  return row;
}

/** What the shared page's head needs (title, opening words, whether the link is open to everyone). */
export async function findSharedPageMeta(db: Db, documentId: string) {
  const [row] = await db
    .select({
      title: documents.title,
      content: documents.content,
      isPublic: documents.isPublic,
      expiresAt: documents.shareExpiresAt,
      passwordHash: documents.sharePasswordHash,
      linkKey: documents.shareLinkKey,
      showSuggestions: documents.shareShowSuggestions,
      trashedAt: documents.trashedAt,
    })
    .from(documents)
    .where(eq(documents.id, documentId));
  return row;
}

// ---------------------------------------------------------------------------------------------------------
// Live documents (collaboration persistence)

/** The Yjs state and the JSON content of a document, or undefined when it does not exist. */
export async function findLiveState(db: Db, documentId: string) {
  const [row] = await db
    .select({ ydocState: documents.ydocState, content: documents.content, version: documents.version })
    .from(documents)
    .where(eq(documents.id, documentId))
    .limit(1);
  return row;
}

/**
 * Sets the first Yjs state of a document that has none (compare-and-set): true when this call set it,
 * false when another instance or load got there first.
 */
export async function claimFirstLiveState(db: Db, documentId: string, state: Uint8Array): Promise<boolean> {
  const claimed = await db
    .update(documents)
    .set({ ydocState: state })
    .where(and(eq(documents.id, documentId), isNull(documents.ydocState)))
    .returning({ id: documents.id });
  return claimed.length > 0;
}

/** One live document's state to write (see storeLiveStates). */
export interface LiveStateStore {
  documentId: string;
  /** Y.encodeStateAsUpdate of the document. */
  state: Uint8Array;
  /** JSON text of the validated rich-text content derived from that state. */
  content: string;
  /** A new title written with this state (the document writer's change of a live document), or null. */
  title: string | null;
  /**
   * The state holds a change of the document writer (a PATCH, a restore): the version moves even when the
   * content ends up as it was, as it does for a document nobody has open.
   */
  writerChange: boolean;
}

/** What the database holds after a store; undefined when the document no longer exists. */
export type LiveStoreResult = { version: number; updatedAt: Date } | undefined;

const LIVE_CHANGE = versionRule(
  'd',
  `incoming.writer_change or d.content is distinct from incoming.content::jsonb
    or d.title is distinct from coalesce(incoming.title, d.title)`,
);

/**
 * One UPDATE for many documents, with the version rule (versionRule): a store whose content and title are what
 * the row holds keeps its version, so reconnects and repeated stores do not move the ETag. SET expressions read
 * the row as it was before this update. State travels as hex text: PGlite exchanges bytea as hex anyway, and
 * text arrays serialize alike on both drivers.
 */
const STORE_SQL = `with incoming as (
  select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::boolean[])
    as t(id, state_hex, content, title, writer_change)
)
update documents d set
  ydoc_state = decode(incoming.state_hex, 'hex'),
  content = incoming.content::jsonb,
  title = coalesce(incoming.title, d.title),
  version = ${LIVE_CHANGE.version},
  updated_at = ${LIVE_CHANGE.updatedAt}
from incoming
where d.id = incoming.id
returning d.id, d.version, d.updated_at`;

export async function storeLiveStates(
  database: Database,
  stores: LiveStateStore[],
): Promise<Map<string, LiveStoreResult>> {
  const rows = (await database.exec(STORE_SQL, [
    stores.map((store) => store.documentId),
    stores.map((store) =>
      Buffer.from(store.state.buffer, store.state.byteOffset, store.state.byteLength).toString('hex'),
    ),
    stores.map((store) => store.content),
    stores.map((store) => store.title),
    stores.map((store) => store.writerChange),
  ])) as { id: string; version: number; updated_at: Date | string }[];
  return new Map(
    rows.map((row) => [row.id, { version: row.version, updatedAt: new Date(row.updated_at) }] as const),
  );
}

// ---------------------------------------------------------------------------------------------------------
// People on a document: what a member sees of the documents shared with them

export interface SharedWithRecord {
  id: string;
  title: string;
  updatedAt: Date;
  /** The user's member roles on it (its own row and the shared folders above it); the policy takes the strongest. */
  roles: string[];
  ownerName: string;
  ownerEmail: string;
  /** The top-most folder shared with the user that holds the document (at any depth), or null. */
  folder: { id: string; name: string } | null;
}

/**
 * The documents outside the trash others shared with the user (optionally only `documentId`), most recently
 * updated first, with their owner's name: those the user is a member of, and those in a folder shared with the
 * user or in any of its sub-folders outside the trash.
 */
export async function listSharedWith(
  db: Db,
  userId: string,
  documentId?: string,
): Promise<SharedWithRecord[]> {
  const result = await db.execute<{
    id: string;
    title: string;
    updated_at: Date | string;
    roles: string[];
    owner_name: string;
    owner_email: string;
    folder_id: string | null;
    folder_name: string | null;
  }>(sql`
    with recursive reach(folder_id, via_id, role, depth) as (
      select fm.folder_id, fm.folder_id, fm.role, 1 from folder_members fm
        join folders f on f.id = fm.folder_id and f.trashed_at is null
        where fm.user_id = ${userId}
      union
      select f.id, r.via_id, r.role, r.depth + 1 from folders f
        join reach r on f.parent_id = r.folder_id
        where f.trashed_at is null and r.depth < ${MAX_FOLDER_DEPTH}
    ),
    grants(document_id, role, via_id, depth) as (
      select dm.document_id, dm.role, null::uuid, 0 from document_members dm where dm.user_id = ${userId}
      union all
      select d.id, r.role, r.via_id, r.depth from reach r join documents d on d.folder_id = r.folder_id
    ),
    shared as (
      select g.document_id, array_agg(g.role) as roles,
        (array_agg(g.via_id order by g.depth desc) filter (where g.via_id is not null))[1] as via_id
      from grants g group by g.document_id
    )
    select d.id, d.title, d.updated_at, s.roles, u.full_name as owner_name, u.email as owner_email,
      vf.id as folder_id, vf.name as folder_name
    from shared s
    join documents d on d.id = s.document_id
    join users u on u.id = d.user_id
    left join folders vf on vf.id = s.via_id
    where d.trashed_at is null and d.user_id <> ${userId}
      ${documentId === undefined ? sql`` : sql`and d.id = ${documentId}`}
    order by d.updated_at desc, d.id`);
  return result.rows.map((row) => ({
    id: row.id,
    title: row.title,
    updatedAt: new Date(row.updated_at),
    roles: row.roles,
    ownerName: row.owner_name,
    ownerEmail: row.owner_email,
    folder: row.folder_id ? { id: row.folder_id, name: row.folder_name ?? '' } : null,
  }));
}
