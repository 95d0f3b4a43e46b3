import { and, eq, isNotNull, isNull, type SQL, type SQLWrapper } from 'drizzle-orm';
import { documents } from '../db/schema';
import type { ApiTokenScope } from '../../shared/schemas/api-tokens';
import type { ShareAccess } from '../../shared/share-links';

/**
 * Who may do what to a document: the rule every way in asks (REST routes, the collaboration socket and its
 * re-checks, the shared page, exports, versions, AI). Pure: no database here. access.ts finds an actor's
 * role on a document (using `ownDocuments` below, the same condition the repository's queries use) and
 * refuses what the role's abilities do not include.
 *
 * Roles: the document's user is its owner. A share-link visitor is an editor, suggester or viewer as the
 * share settings hold now. Anyone else has no role, and is told the document does not exist.
 */

/** What can be done to a document. */
export const DOCUMENT_ABILITIES = [
  /** See the document's title and text. */
  'read',
  /** Change the text freely (REST, or live on the socket). */
  'write',
  /** Propose tracked changes; a suggester's updates are checked one by one (collab/suggestion-guard.ts). */
  'suggest',
  /**
   * Open the live (collaborative) document. A view-only visitor reads the saved copy instead, which leaves
   * out pending suggestions unless the owner shows them; the live document holds every suggestion.
   */
  'openLive',
  /** Change the share settings, reset the link. */
  'share',
  'delete',
  /** Ask the AI about the document, keep its suggestions and chat about it. */
  'useAi',
  /** List and read earlier versions. */
  'seeVersions',
  /** Save, restore and delete versions. */
  'manageVersions',
  /** Download the document as a file. */
  'export',
] as const;
export type DocumentAbility = (typeof DOCUMENT_ABILITIES)[number];

export const DOCUMENT_ROLES = ['owner', 'editor', 'suggester', 'viewer'] as const;
export type DocumentRole = (typeof DOCUMENT_ROLES)[number];

/** The abilities table: everything a role may do (docs/security.md shows it as a table). */
export const ROLE_ABILITIES: Readonly<Record<DocumentRole, ReadonlySet<DocumentAbility>>> = {
  owner: new Set(DOCUMENT_ABILITIES),
  editor: new Set(['read', 'write', 'suggest', 'openLive']),
  suggester: new Set(['read', 'suggest', 'openLive']),
  viewer: new Set(['read']),
};

/**
 * What a personal API token's scopes allow, whatever the user's role. Never sharing (a token must not publish a
 * document), live editing (the socket takes sessions only) or AI (it spends the user's allowance). A
 * suggest-only token has no `write`: REST changes are refused for it rather than turned into suggestions.
 */
const TOKEN_SCOPE_ABILITIES: Readonly<Record<ApiTokenScope, ReadonlySet<DocumentAbility>>> = {
  read: new Set(['read', 'seeVersions', 'export']),
  write: new Set(['read', 'write', 'delete', 'seeVersions', 'manageVersions', 'export']),
  suggest: new Set(['read', 'suggest']),
};

/** Whether a token with `scopes` may do `ability` (to the documents its user holds a role on). */
export function tokenMay(scopes: readonly ApiTokenScope[], ability: DocumentAbility): boolean {
  return scopes.some((scope) => TOKEN_SCOPE_ABILITIES[scope].has(ability));
}

/** Whether `role` (null: no role at all) may do `ability`. */
export function can(role: DocumentRole | null | undefined, ability: DocumentAbility): boolean {
  return role ? ROLE_ABILITIES[role].has(ability) : false;
}

/**
 * Who is asking. A signed-in user (their session already checked by whoever authenticated them), or a visitor
 * holding a share token for one document. A request with a personal API token is its user, with every role
 * narrowed to the token's abilities (TOKEN_SCOPE_ABILITIES, checked before the route runs).
 */
export type DocumentActor =
  { kind: 'user'; userId: string } | { kind: 'share'; token: string; documentId: string };

/** The role a share link's access level grants its visitors. */
export const SHARE_ROLES: Readonly<Record<ShareAccess, DocumentRole>> = {
  edit: 'editor',
  suggest: 'suggester',
  view: 'viewer',
};

/**
 * The documents a signed-in user holds a role on, as a where-clause on `documents`: their own (the owner
 * role), outside the trash. The repository's list, get, update and delete statements are built on it, and the
 * single check (documentRole) runs it, so a list and a check cannot disagree, and a trashed document is
 * missing to every way in at once. `userId` may be a value or a placeholder of a prepared statement.
 */
export function ownDocuments(userId: SQLWrapper | string): SQL {
  return and(eq(documents.userId, userId), isNull(documents.trashedAt))!;
}

/** The user's documents in the trash: all they may do there is list, restore or delete them for good. */
export function ownTrashedDocuments(userId: SQLWrapper | string): SQL {
  return and(eq(documents.userId, userId), isNotNull(documents.trashedAt))!;
}

/**
 * The same rule for a document whose owner is already known (the socket's batched re-check reads the owners
 * of many documents in one statement): the owner role, or none.
 */
export function roleOfUser(ownerId: string | undefined, userId: string): DocumentRole | null {
  return ownerId !== undefined && ownerId === userId ? 'owner' : null;
}
