import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import { documents, sessions } from '../db/schema';
import { AppError } from '../errors';
import { authenticateToken } from '../plugins/auth';
import { verifyShareToken } from '../services/sharing';

/** What a connection may do with a document: owner and editor write, viewer only reads. */
export type DocumentAccess = 'owner' | 'editor' | 'viewer';

/** Who is behind a collaboration token. */
export type CollabPrincipal =
  | { kind: 'user'; userId: string; sessionId: string; email: string }
  /** A visitor holding a share token (SPEC §2 Share menu); `token` is re-verified on every re-check. */
  | { kind: 'share'; token: string; documentId: string };

export interface AccessDeps {
  config: Config;
  database: Database;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

export function isDocumentId(value: string): boolean {
  return UUID.test(value);
}

/**
 * The principal of a socket token: a signed-in user's access token (session must not be revoked), or a
 * share token from GET /api/shared/:id. Null when it is neither.
 */
export async function authenticateCollabToken(
  deps: AccessDeps,
  token: string | undefined,
): Promise<CollabPrincipal | null> {
  if (!token) return null;
  try {
    const claims = await authenticateToken(deps, token);
    return { kind: 'user', ...claims };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
  const grant = await verifyShareToken(deps.database.db, deps.config.JWT_SECRET, token);
  if (grant) return { kind: 'share', token, documentId: grant.documentId };
  return null;
}

/**
 * THE access decision for a live document, made on connect and re-made while connected (see
 * AuthenticationExtension). Owner: the document's user_id. Share visitors: editor or viewer as the
 * share settings say, for as long as their token matches those settings. Anyone else: null, which the
 * socket reports like the REST API's 404.
 */
export async function resolveDocumentAccess(
  deps: AccessDeps,
  principal: CollabPrincipal,
  documentId: string,
): Promise<DocumentAccess | null> {
  if (!isDocumentId(documentId)) return null;
  const { db } = deps.database;
  if (principal.kind === 'user') {
    const [row] = await db
      .select({ userId: documents.userId })
      .from(documents)
      .where(eq(documents.id, documentId))
      .limit(1);
    if (!row) return null;
    return row.userId === principal.userId ? 'owner' : null;
  }
  if (principal.documentId !== documentId) return null;
  const grant = await verifyShareToken(db, deps.config.JWT_SECRET, principal.token);
  if (!grant || grant.documentId !== documentId) return null;
  return grant.canEdit ? 'editor' : 'viewer';
}

/** Whether a user's session is still signed in (sign-out and refresh-token reuse revoke it). */
export async function isSessionActive(deps: AccessDeps, userId: string, sessionId: string): Promise<boolean> {
  const [row] = await deps.database.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .limit(1);
  return row !== undefined;
}

/**
 * The owner re-check of many connections in one statement (AuthenticationExtension's sweep): which of
 * `sessionIds` are still signed in (with their user), and the owner of each of `documentIds` that still
 * exists. Ids travel as one comma-separated text each, so the statement text never changes.
 */
export async function lookUpOwnerAccess(
  deps: AccessDeps,
  sessionIds: Iterable<string>,
  documentIds: Iterable<string>,
): Promise<{ activeSessions: Map<string, string>; owners: Map<string, string> }> {
  const rows = await statements(deps.database.db).ownerAccess.execute({
    sessionIds: [...sessionIds].join(','),
    documentIds: [...documentIds].filter(isDocumentId).join(','),
  });
  const activeSessions = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const row of rows) (row.kind === 'session' ? activeSessions : owners).set(row.id, row.userId);
  return { activeSessions, owners };
}

function buildStatements(db: Db) {
  const inList = (column: typeof sessions.id | typeof documents.id, name: string) =>
    sql`${column} = any(string_to_array(${sql.placeholder(name)}::text, ',')::uuid[])`;
  return {
    ownerAccess: db
      .select({
        kind: sql<'session' | 'document'>`'session'`.as('kind'),
        id: sessions.id,
        userId: sessions.userId,
      })
      .from(sessions)
      .where(and(inList(sessions.id, 'sessionIds'), isNull(sessions.revokedAt)))
      .unionAll(
        db
          .select({
            kind: sql<'session' | 'document'>`'document'`.as('kind'),
            id: documents.id,
            userId: documents.userId,
          })
          .from(documents)
          .where(inList(documents.id, 'documentIds')),
      )
      .prepare('qw_collab_owner_access'),
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
