import { z } from 'zod';
import type { ShareAccess } from '../share-links';

/** YYYY-MM-DD (the share menu's date input); the link stops working at the end of that day (UTC). */
const shareExpiryDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD');

const MAX_SHARE_PASSWORD_LENGTH = 200;

/** PUT /api/documents/:id/share. `password`: a string sets it, null removes it, absent keeps it. */
export const updateShareSettingsSchema = z.strictObject({
  isPublic: z.boolean(),
  allowEditing: z.boolean().default(false),
  /** Visitors propose changes as tracked suggestions; ignored while `allowEditing` is on. */
  allowSuggesting: z.boolean().default(false),
  /** Visitors read and comment on passages; ignored while `allowEditing` or `allowSuggesting` is on. */
  allowCommenting: z.boolean().default(false),
  /** View-only visitors see pending suggestions (with a legend); off, they read the text without them. */
  showSuggestions: z.boolean().default(false),
  expiresAt: shareExpiryDateSchema.nullable().default(null),
  password: z.string().min(1).max(MAX_SHARE_PASSWORD_LENGTH).nullable().optional(),
});
export type UpdateShareSettings = z.input<typeof updateShareSettingsSchema>;

export interface ShareSettings {
  isPublic: boolean;
  allowEditing: boolean;
  allowSuggesting: boolean;
  allowCommenting: boolean;
  showSuggestions: boolean;
  /** YYYY-MM-DD, as set. */
  expiresAt: string | null;
  hasPassword: boolean;
  /** The key in the link's address (`shareLink`); null for a link never reset. */
  linkKey: string | null;
}

/** POST /api/shared/:id/unlock */
export const unlockShareSchema = z.strictObject({
  password: z.string().min(1).max(MAX_SHARE_PASSWORD_LENGTH),
});

export { SHARE_LINK_KEY_PARAM } from '../share-links';

/** What a visitor with the link gets. `shareToken` authorizes the visitor's collaboration socket. */
export interface SharedDocument {
  id: string;
  title: string;
  content: unknown;
  updated_at: string;
  allowEditing: boolean;
  /**
   * What the visitor may do: read, propose changes as tracked suggestions (Suggesting mode is forced and the
   * server refuses plain edits), or edit.
   */
  access: ShareAccess;
  /** Whether `content` still holds pending suggestions for a view-only visitor (the owner chose to show them). */
  showSuggestions: boolean;
  shareToken: string;
}
