/**
 * Share links: the access levels a link can grant and the link itself. Kept apart from the zod schemas
 * so the editor's share menu does not load zod.
 */

/** What a share-link visitor may do: read, read and comment on passages, propose tracked suggestions, or edit. */
export type ShareAccess = 'view' | 'comment' | 'suggest' | 'edit';

/** The query parameter that carries a reset link's key. */
export const SHARE_LINK_KEY_PARAM = 'key';

/** The level the settings grant: editing wins over suggesting, suggesting over commenting. */
export function shareAccessOf(settings: {
  allowEditing: boolean;
  allowSuggesting: boolean;
  allowCommenting: boolean;
}): ShareAccess {
  if (settings.allowEditing) return 'edit';
  if (settings.allowSuggesting) return 'suggest';
  return settings.allowCommenting ? 'comment' : 'view';
}

/**
 * `{origin}/shared/{id}`, with the link's key once it has been reset and `protected=true` with a password. The
 * access level is not in the link: the server grants the level the share settings hold when the link is
 * opened, so a copied link follows the owner's later changes.
 */
export function shareLink(
  origin: string,
  documentId: string,
  settings: { hasPassword: boolean; linkKey: string | null },
) {
  const url = new URL(`/shared/${documentId}`, origin);
  if (settings.linkKey) url.searchParams.set(SHARE_LINK_KEY_PARAM, settings.linkKey);
  if (settings.hasPassword) url.searchParams.set('protected', 'true');
  return url.toString();
}
