import type { ServerDependencies } from '../dependencies';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { verifyShareToken } from '../sharing/service';
import { findDocumentOwner } from './repository';

/**
 * THE access rule for documents, for every way in: REST (the owner's session), the collaboration socket
 * (a session or a share token), share links and AI. Owner: the document's user_id. A share-link visitor:
 * editor, suggester or viewer as the share settings say, for as long as their token matches those settings.
 * Anyone else gets null, which every caller reports like a missing document (404 / document-not-found).
 */

/**
 * What a caller may do: the owner and an editor write; a suggester changes the text only through tracked
 * suggestions (the collaboration socket checks each update, see collab/suggestion-guard.ts); a viewer only
 * reads. AI is the owner's (assertDocumentOwner).
 */
export type DocumentRole = 'owner' | 'editor' | 'suggester' | 'viewer';

const ROLE_OF_SHARE_ACCESS = { edit: 'editor', suggest: 'suggester', view: 'viewer' } as const;

/** Who is asking: a signed-in user, or a visitor holding a share token for one document. */
export type DocumentCaller =
  { kind: 'user'; userId: string } | { kind: 'share'; token: string; documentId: string };

export type AccessDeps = Pick<ServerDependencies, 'database'> & { config: Pick<Config, 'JWT_SECRET'> };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

export function isDocumentId(value: string): boolean {
  return UUID.test(value);
}

export async function documentRole(
  deps: AccessDeps,
  caller: DocumentCaller,
  documentId: string,
): Promise<DocumentRole | null> {
  if (!isDocumentId(documentId)) return null;
  if (caller.kind === 'user') {
    return (await findDocumentOwner(deps.database.db, documentId)) === caller.userId ? 'owner' : null;
  }
  if (caller.documentId !== documentId) return null;
  const grant = await verifyShareToken(deps.database.db, deps.config.JWT_SECRET, caller.token);
  if (!grant || grant.documentId !== documentId) return null;
  return ROLE_OF_SHARE_ACCESS[grant.access];
}

/** Whether the caller may change the document freely. */
export const mayWrite = (role: DocumentRole | null): boolean => role === 'owner' || role === 'editor';

/** Whether the caller may send changes at all (a suggester's are checked one by one). */
export const mayChange = (role: DocumentRole | null): boolean => mayWrite(role) || role === 'suggester';

/** 404 (with `code`) unless the document exists and belongs to the user; another user's is not revealed. */
export async function assertDocumentOwner(
  db: Db,
  userId: string,
  documentId: string,
  code = 'not_found',
): Promise<void> {
  if (!isDocumentId(documentId) || (await findDocumentOwner(db, documentId)) !== userId) {
    throw notFound('Document not found', code);
  }
}
