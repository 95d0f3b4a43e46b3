/**
 * Share links: the access levels a link can grant and the link itself. Kept apart from the zod schemas
 * (schemas/sharing.ts re-exports them) so the editor's share menu does not load zod.
 */

/** What a share-link visitor may do: read, propose tracked suggestions, or edit. */
export const SHARE_ACCESS_LEVELS = ['view', 'suggest', 'edit'] as const;
export type ShareAccess = (typeof SHARE_ACCESS_LEVELS)[number];

/** The level the settings grant: editing wins over suggesting. */
export function shareAccessOf(settings: { allowEditing: boolean; allowSuggesting: boolean }): ShareAccess {
  if (settings.allowEditing) return 'edit';
  return settings.allowSuggesting ? 'suggest' : 'view';
}

/**
 * `{origin}/shared/{id}` with `edit=true` when editing is allowed (`suggest=true` when visitors may suggest)
 * and `protected=true` with a password. The parameters only describe the link: the server decides access.
 */
export function shareLink(
  origin: string,
  documentId: string,
  settings: { allowEditing: boolean; hasPassword: boolean; allowSuggesting?: boolean },
) {
  const url = new URL(`/shared/${documentId}`, origin);
  const access = shareAccessOf({
    allowEditing: settings.allowEditing,
    allowSuggesting: !!settings.allowSuggesting,
  });
  if (access === 'edit') url.searchParams.set('edit', 'true');
  if (access === 'suggest') url.searchParams.set('suggest', 'true');
  if (settings.hasPassword) url.searchParams.set('protected', 'true');
  return url.toString();
}
