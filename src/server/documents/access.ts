import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import { notFound } from '../errors';
import { isUuid } from '../../shared/uuid';
import {
  can,
  roleOfUser,
  SHARE_ROLES,
  type DocumentAbility,
  type DocumentActor,
  type DocumentRole,
} from './policy';
import { verifyShareToken } from './share-links';
import {
  findDocumentRoleFacts,
  findReadableDocument,
  findRoleFacts,
  type DocumentRecord,
} from './repository';

/**
 * The access policy (policy.ts) asked of the database: an actor's role on a document, and the refusal of
 * what that role may not do. Every way in calls these: the REST routes (directly, or through the
 * repository's statements built on the same condition), the collaboration socket and its re-checks,
 * exports, versions, AI. A refusal looks like a missing document (404 / document-not-found), so another
 * user's document is never revealed.
 */

export { can, type DocumentAbility, type DocumentActor, type DocumentRole } from './policy';

/** What finding a role needs: the database, and the secret share tokens are signed with (share actors). */
export interface AccessDeps {
  db: Db;
  config?: Pick<Config, 'JWT_SECRET'>;
}

/** The actor's role on the document, or null (no such document, not theirs, a stale share token). */
export async function documentRole(
  deps: AccessDeps,
  actor: DocumentActor,
  documentId: string,
): Promise<DocumentRole | null> {
  if (!isUuid(documentId)) return null;
  if (actor.kind === 'user') {
    const facts = await findRoleFacts(deps.db, actor.userId, documentId);
    return roleOfUser(facts?.ownerId, actor.userId, facts?.memberRoles);
  }
  if (actor.documentId !== documentId) return null;
  if (!deps.config) throw new Error('Checking a share token needs the JWT secret');
  const grant = await verifyShareToken(deps.db, deps.config.JWT_SECRET, actor.token);
  if (!grant || grant.documentId !== documentId) return null;
  return SHARE_ROLES[grant.access];
}

/**
 * The actor's role when it may do `ability` to the document; otherwise 404 with `code`, the same answer as
 * for a document that does not exist.
 */
export async function authorizeDocument(
  deps: AccessDeps,
  actor: DocumentActor,
  documentId: string,
  ability: DocumentAbility,
  code = 'not_found',
): Promise<DocumentRole> {
  const role = await documentRole(deps, actor, documentId);
  if (!role || !can(role, ability)) throw notFound('Document not found', code);
  return role;
}

/**
 * The roles of signed-in users on many documents at once (the socket's sweep, every second): one small
 * statement reads the documents' owners and the users' member roles (their documents' and their folders'), and
 * the policy's rule decides each pair.
 */
export async function userRoles(
  database: Database,
  pairs: Iterable<{ userId: string; documentId: string }>,
): Promise<(pair: { userId: string; documentId: string }) => DocumentRole | null> {
  const ids = new Set<string>();
  const users = new Set<string>();
  for (const { documentId, userId } of pairs) {
    if (!isUuid(documentId)) continue;
    ids.add(documentId);
    users.add(userId);
  }
  const facts =
    ids.size > 0
      ? await findDocumentRoleFacts(database, [...ids], [...users])
      : { owners: new Map<string, string>(), memberRoles: new Map<string, string[]>() };
  return ({ userId, documentId }) =>
    roleOfUser(facts.owners.get(documentId), userId, facts.memberRoles.get(`${documentId}\u0000${userId}`));
}

/**
 * The document itself when the signed-in user may do `ability` to it (one statement, on the policy's
 * condition); otherwise 404 with `code`. For routes that act on the whole document: exports, AI chat.
 */
export async function documentForUser(
  deps: Pick<AccessDeps, 'db'>,
  userId: string,
  documentId: string,
  ability: DocumentAbility,
  code = 'not_found',
): Promise<DocumentRecord> {
  if (!isUuid(documentId)) throw notFound('Document not found', code);
  const role = await documentRole(deps, { kind: 'user', userId }, documentId);
  const document = can(role, ability) ? await findReadableDocument(deps.db, userId, documentId) : undefined;
  if (!document) throw notFound('Document not found', code);
  return document;
}
