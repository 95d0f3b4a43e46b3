import { z } from 'zod';

/** YYYY-MM-DD (the share menu's date input); the link stops working at the end of that day (UTC). */
export const shareExpiryDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD');

export const MAX_SHARE_PASSWORD_LENGTH = 200;

/** PUT /api/documents/:id/share. `password`: a string sets it, null removes it, absent keeps it. */
export const updateShareSettingsSchema = z.strictObject({
  isPublic: z.boolean(),
  allowEditing: z.boolean().default(false),
  /** Visitors propose changes as tracked suggestions; ignored while `allowEditing` is on. */
  allowSuggesting: z.boolean().default(false),
  expiresAt: shareExpiryDateSchema.nullable().default(null),
  password: z.string().min(1).max(MAX_SHARE_PASSWORD_LENGTH).nullable().optional(),
});
export type UpdateShareSettings = z.input<typeof updateShareSettingsSchema>;

export const shareSettingsSchema = z.object({
  isPublic: z.boolean(),
  allowEditing: z.boolean(),
  allowSuggesting: z.boolean(),
  expiresAt: shareExpiryDateSchema.nullable(),
  hasPassword: z.boolean(),
});
export type ShareSettings = z.infer<typeof shareSettingsSchema>;

/** POST /api/shared/:id/unlock */
export const unlockShareSchema = z.strictObject({
  password: z.string().min(1).max(MAX_SHARE_PASSWORD_LENGTH),
});

import { SHARE_ACCESS_LEVELS } from '../share-links';

export { SHARE_ACCESS_LEVELS, shareAccessOf, shareLink, type ShareAccess } from '../share-links';

/** What a visitor with the link gets. `shareToken` authorizes the visitor's collaboration socket. */
export const sharedDocumentSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.unknown(),
  updated_at: z.string(),
  allowEditing: z.boolean(),
  /**
   * What the visitor may do: read, propose changes as tracked suggestions (Suggesting mode is forced and the
   * server refuses plain edits), or edit.
   */
  access: z.enum(SHARE_ACCESS_LEVELS),
  shareToken: z.string(),
});
export type SharedDocument = z.infer<typeof sharedDocumentSchema>;
