import type { ServerDependencies } from '../dependencies';
import { and, eq, isNull } from 'drizzle-orm';
import { sessions } from '../db/schema';
import { documentRole, isDocumentId, type DocumentRole } from '../documents/access';
import { findDocumentOwners } from '../documents/repository';
import { AppError } from '../errors';
import { authenticateToken } from '../plugins/auth';
import { verifyShareToken } from '../sharing/service';

export { isDocumentId } from '../documents/access';

/** What a connection may do with a document: owner and editor write, viewer only reads. */
export type DocumentAccess = DocumentRole;

/** Who is behind a collaboration token. */
export type CollabPrincipal =
  | { kind: 'user'; userId: string; sessionId: string; email: string }
  /** A visitor holding a share token (SPEC §2 Share menu); `token` is re-verified on every re-check. */
  | { kind: 'share'; token: string; documentId: string };

export type AccessDeps = Pick<ServerDependencies, 'config' | 'database'>;

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
 * The access decision for a live document, made on connect and re-made while connected (see
 * AuthenticationExtension): the documents module's one rule (documentRole).
 */
export function resolveDocumentAccess(
  deps: AccessDeps,
  principal: CollabPrincipal,
  documentId: string,
): Promise<DocumentAccess | null> {
  return documentRole(deps, principal, documentId);
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
  const [sessionRows, owners] = await Promise.all([
    deps.database.exec(ACTIVE_SESSIONS_SQL, [[...sessionIds].join(',')]) as Promise<IdRow[]>,
    findDocumentOwners(deps.database, [...documentIds].filter(isDocumentId)),
  ]);
  return { activeSessions: new Map(sessionRows.map((row) => [row.id, row.user_id])), owners };
}

interface IdRow {
  id: string;
  user_id: string;
}

const ACTIVE_SESSIONS_SQL = `select id, user_id from sessions
  where id = any(string_to_array($1::text, ',')::uuid[]) and revoked_at is null`;
