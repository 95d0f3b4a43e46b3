import { and, eq, isNull } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { documents, sessions } from '../db/schema';
import { AppError } from '../errors';
import { authenticateToken } from '../plugins/auth';
import { verifyShareToken } from '../sharing/service';

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
 * The owner re-check of many connections at once (AuthenticationExtension's sweep): which of `sessionIds`
 * are still signed in (with their user), and the owner of each of `documentIds` that still exists. Two
 * small statements whatever the number of connections, ids passed as one comma-separated text each. Raw
 * SQL on purpose: this runs every second, and with PGlite (on this thread) each statement through Drizzle
 * cost about twice as much; one UNION statement cost four times as much to plan and run.
 */
export async function lookUpOwnerAccess(
  deps: AccessDeps,
  sessionIds: Iterable<string>,
  documentIds: Iterable<string>,
): Promise<{ activeSessions: Map<string, string>; owners: Map<string, string> }> {
  const { exec } = deps.database;
  const [sessionRows, documentRows] = (await Promise.all([
    exec(ACTIVE_SESSIONS_SQL, [[...sessionIds].join(',')]),
    exec(DOCUMENT_OWNERS_SQL, [[...documentIds].filter(isDocumentId).join(',')]),
  ])) as [IdRow[], IdRow[]];
  return {
    activeSessions: new Map(sessionRows.map((row) => [row.id, row.user_id])),
    owners: new Map(documentRows.map((row) => [row.id, row.user_id])),
  };
}

interface IdRow {
  id: string;
  user_id: string;
}

const ACTIVE_SESSIONS_SQL = `select id, user_id from sessions
  where id = any(string_to_array($1::text, ',')::uuid[]) and revoked_at is null`;
const DOCUMENT_OWNERS_SQL = `select id, user_id from documents
  where id = any(string_to_array($1::text, ',')::uuid[])`;
