import { and, eq, exists, inArray, isNotNull, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { documentMembers, documents, folderMembers } from '../db/schema';
import type { ApiTokenScope } from '../../shared/schemas/api-tokens';
import type { ShareAccess } from '../../shared/share-links';
import { MEMBER_ROLES, type MemberRole } from '../../shared/schemas/people';

/**
 * Who may do what to a document: the rule every way in asks (REST routes, the collaboration socket and its
 * re-checks, the shared page, exports, versions, AI). Pure: no database here. access.ts finds an actor's
 * role on a document (using `ownDocuments` below, the same condition the repository's queries use) and
 * refuses what the role's abilities do not include.
 *
 * Roles: the document's user is its owner. A person the owner invited to the document (document_members) or to
 * its folder or any folder above it (folder_members) holds the strongest of those roles as the rows hold now; a
 * share-link visitor holds the role the share settings give now.
 * Anyone else has no role, and is told the document does not exist. A trashed document gives no one a role
 * but its owner, and the owner only the trash's abilities (list, restore, delete for good).
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
   * Open a comment thread on a passage and reply in threads (docs/comments.md). The server anchors the thread
   * (its mark in the text), so commenting needs no `write`.
   */
  'comment',
  /**
   * Open the live (collaborative) document. A view-only visitor reads the saved copy instead, which leaves
   * out pending suggestions unless the owner shows them; the live document holds every suggestion.
   */
  'openLive',
  /** Change the share settings, reset the link. */
  'share',
  /** Invite people, change their roles, remove them. */
  'manageMembers',
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

export const DOCUMENT_ROLES = ['owner', 'editor', 'suggester', 'commenter', 'viewer'] as const;
export type DocumentRole = (typeof DOCUMENT_ROLES)[number];

/** The abilities table: everything a role may do (docs/security.md shows it as a table). */
export const ROLE_ABILITIES: Readonly<Record<DocumentRole, ReadonlySet<DocumentAbility>>> = {
  owner: new Set(DOCUMENT_ABILITIES),
  editor: new Set(['read', 'write', 'suggest', 'comment', 'openLive']),
  suggester: new Set(['read', 'suggest', 'comment', 'openLive']),
  // Reads the saved copy like a viewer (no live document): comments are not in the Y.Doc.
  commenter: new Set(['read', 'comment']),
  viewer: new Set(['read']),
};

/**
 * What a personal API token's scopes allow, whatever the user's role. Never sharing (a token must not publish a
 * document), live editing (the socket takes sessions only) or AI (it spends the user's allowance). A
 * suggest-only token has no `write`: REST changes are refused for it rather than turned into suggestions.
 */
const TOKEN_SCOPE_ABILITIES: Readonly<Record<ApiTokenScope, ReadonlySet<DocumentAbility>>> = {
  read: new Set(['read', 'seeVersions', 'export']),
  write: new Set(['read', 'write', 'comment', 'delete', 'seeVersions', 'manageVersions', 'export']),
  comment: new Set(['read', 'comment']),
  suggest: new Set(['read', 'suggest', 'comment']),
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
  comment: 'commenter',
  view: 'viewer',
};

/** The roles a member row can hold that include `ability` (the abilities table decides, not a list here). */
function memberRolesWith(ability: DocumentAbility): MemberRole[] {
  return MEMBER_ROLES.filter((role) => can(role, ability));
}

/**
 * The folder `folderId` names and every folder above it, outside the trash, as a subquery of ids: where a
 * folder membership can give a role on a document in it. Walks up by parent (at most MAX_FOLDER_DEPTH steps, by
 * primary key); `union` rather than `union all`, so even a loop in the data would end.
 */
function foldersUpFrom(folderId: SQLWrapper): SQL {
  return sql`(with recursive up(id, parent_id) as (
    select f.id, f.parent_id from folders f where f.id = ${folderId} and f.trashed_at is null
    union
    select f.id, f.parent_id from folders f join up on f.id = up.parent_id where f.trashed_at is null
  ) select id from up)`;
}

/**
 * The roles the user holds through folder memberships on the document (`documents` of the outer statement):
 * the memberships on its folder or any folder above it, optionally only those among `roles`.
 */
export function folderRolesOnDocument(userId: SQLWrapper | string, roles?: readonly MemberRole[]): SQL {
  return sql`select ${folderMembers.role} from ${folderMembers} where ${and(
    eq(folderMembers.userId, userId),
    roles ? inArray(folderMembers.role, [...roles]) : undefined,
  )} and ${folderMembers.folderId} in ${foldersUpFrom(documents.folderId)}`;
}

/**
 * The documents a signed-in user may do `ability` to, as a where-clause on `documents`, outside the trash:
 * their own (the owner may do everything) and those they hold a role on that includes it, through the
 * document's own member row or a folder membership on its folder or a folder above it. The repository's reads
 * (`read`) and the editor's writes (`write`) are built on it.
 */
export function documentsWith(userId: SQLWrapper | string, ability: DocumentAbility): SQL {
  const roles = memberRolesWith(ability);
  const member =
    roles.length === 0
      ? undefined
      : or(
          exists(
            sql`(select 1 from ${documentMembers} where ${and(
              eq(documentMembers.documentId, documents.id),
              eq(documentMembers.userId, userId),
              inArray(documentMembers.role, roles),
            )})`,
          ),
          // Only documents in a folder can have a role through one.
          and(isNotNull(documents.folderId), exists(sql`(${folderRolesOnDocument(userId, roles)})`)),
        );
  return and(isNull(documents.trashedAt), or(eq(documents.userId, userId), member))!;
}

/**
 * The documents a signed-in user owns, as a where-clause on `documents`, outside the trash: what owner-only
 * statements (delete, share settings, members, counts for plan limits, the dashboard's own list) act on. A
 * trashed document is missing to every way in at once. `userId` may be a value or a placeholder of a prepared
 * statement.
 */
export function ownDocuments(userId: SQLWrapper | string): SQL {
  return and(eq(documents.userId, userId), isNull(documents.trashedAt))!;
}

/** The user's documents in the trash: all they may do there is list, restore or delete them for good. */
export function ownTrashedDocuments(userId: SQLWrapper | string): SQL {
  return and(eq(documents.userId, userId), isNotNull(documents.trashedAt))!;
}

/**
 * The same rule for a document whose owner and the user's member roles (the document's own row and every
 * folder membership above it) are already known, outside the trash: the owner role, else the strongest of the
 * member roles, or none. `documentRole` and the socket's batched re-check decide with it.
 */
export function roleOfUser(
  ownerId: string | undefined,
  userId: string,
  memberRoles: readonly (string | null | undefined)[] = [],
): DocumentRole | null {
  if (ownerId === undefined) return null;
  if (ownerId === userId) return 'owner';
  return strongestRole(memberRoles.filter(isMemberRole));
}

/**
 * The role that may do the most among `roles` (null for none). The abilities table decides: each member role's
 * abilities include those of the roles below it, so the one with the most abilities is the strongest.
 */
export function strongestRole(roles: readonly MemberRole[]): MemberRole | null {
  let best: MemberRole | null = null;
  for (const role of roles) {
    if (!best || ROLE_ABILITIES[role].size > ROLE_ABILITIES[best].size) best = role;
  }
  return best;
}

export function isMemberRole(value: string | null | undefined): value is MemberRole {
  return (MEMBER_ROLES as readonly (string | null | undefined)[]).includes(value);
}
