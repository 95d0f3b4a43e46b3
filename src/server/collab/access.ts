import type { ServerDependencies } from '../dependencies';
import { documentRole, userRoles, verifyShareToken, type DocumentRole } from '../documents';
import { AppError } from '../errors';
import { authenticateToken, signedInSessions } from '../plugins';

/** What a connection may do with a document: the documents policy's role on it. */
export type DocumentAccess = DocumentRole;

/** Who is behind a collaboration token. */
export type CollabPrincipal =
  | { kind: 'user'; userId: string; sessionId: string; email: string }
  /** A visitor holding a public share link's token; `token` is re-verified on every re-check. */
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
 * AuthenticationExtension): the documents policy's role of the principal.
 */
export function resolveDocumentAccess(
  deps: AccessDeps,
  principal: CollabPrincipal,
  documentId: string,
): Promise<DocumentAccess | null> {
  return documentRole({ db: deps.database.db, config: deps.config }, principal, documentId);
}

/** One signed-in user's connection to a document, as the sweep re-checks it. */
export interface UserConnection {
  userId: string;
  sessionId: string;
  documentId: string;
}

/**
 * The re-check of many signed-in users' connections at once (AuthenticationExtension's sweep): sessions
 * still signed in, and the users' roles on the documents, in two small statements whatever the number of
 * connections. Returns the decision for each connection (null: it lost access).
 */
export async function lookUpUserAccess(
  deps: AccessDeps,
  connections: readonly UserConnection[],
): Promise<(connection: UserConnection) => DocumentAccess | null> {
  const [signedIn, roleOf] = await Promise.all([
    signedInSessions(deps.database, new Set(connections.map((c) => c.sessionId))),
    userRoles(deps.database, connections),
  ]);
  return (connection) =>
    signedIn.get(connection.sessionId) === connection.userId ? roleOf(connection) : null;
}
