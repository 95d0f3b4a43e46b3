import { z } from 'zod';

/** YYYY-MM-DD (the share menu's date input); the link stops working at the end of that day (UTC). */
export const shareExpiryDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD');

export const MAX_SHARE_PASSWORD_LENGTH = 200;

/** PUT /api/documents/:id/share. `password`: a string sets it, null removes it, absent keeps it. */
export const updateShareSettingsSchema = z.strictObject({
  isPublic: z.boolean(),
  allowEditing: z.boolean().default(false),
  expiresAt: shareExpiryDateSchema.nullable().default(null),
  password: z.string().min(1).max(MAX_SHARE_PASSWORD_LENGTH).nullable().optional(),
});
export type UpdateShareSettings = z.input<typeof updateShareSettingsSchema>;

export const shareSettingsSchema = z.object({
  isPublic: z.boolean(),
  allowEditing: z.boolean(),
  expiresAt: shareExpiryDateSchema.nullable(),
  hasPassword: z.boolean(),
});
export type ShareSettings = z.infer<typeof shareSettingsSchema>;

/** POST /api/shared/:id/unlock */
export const unlockShareSchema = z.strictObject({
  password: z.string().min(1).max(MAX_SHARE_PASSWORD_LENGTH),
});

/** What a visitor with the link gets. `shareToken` authorizes the visitor's collaboration socket. */
export const sharedDocumentSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.unknown(),
  updated_at: z.string(),
  allowEditing: z.boolean(),
  shareToken: z.string(),
});
export type SharedDocument = z.infer<typeof sharedDocumentSchema>;

/** `{origin}/shared/{id}` with `edit=true` when editing is allowed and `protected=true` with a password. */
export function shareLink(
  origin: string,
  documentId: string,
  settings: Pick<ShareSettings, 'allowEditing' | 'hasPassword'>,
) {
  const url = new URL(`/shared/${documentId}`, origin);
  if (settings.allowEditing) url.searchParams.set('edit', 'true');
  if (settings.hasPassword) url.searchParams.set('protected', 'true');
  return url.toString();
}
