import { z } from 'zod';
import { API_TOKEN_MAX_EXPIRY_DAYS, API_TOKEN_NAME_MAX_LENGTH } from '../constants';

/** Personal API tokens (`/api/me/api-tokens`) and the instance's switch for them (`/api/admin/api-tokens`). */

/**
 * What a token may do: `read` documents, versions and exports; `write` (create, change, delete) them too;
 * `comment`: read, and comment on passages; `suggest`: read, and propose changes but never write directly.
 */
export const API_TOKEN_SCOPES = ['read', 'write', 'comment', 'suggest'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const apiTokenCreateSchema = z.object({
  name: z.string().trim().min(1, 'give the token a name').max(API_TOKEN_NAME_MAX_LENGTH),
  scopes: z
    .array(z.enum(API_TOKEN_SCOPES))
    .min(1, 'choose at least one scope')
    .max(API_TOKEN_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'list each scope once'),
  /** Days until the token stops working; null or absent: it never expires. */
  expires_in_days: z.number().int().min(1).max(API_TOKEN_MAX_EXPIRY_DAYS).nullable().optional(),
});
export type ApiTokenCreate = z.infer<typeof apiTokenCreateSchema>;

const apiTokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  /** The secret's last characters, to tell tokens apart. */
  hint: z.string(),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime().nullable(),
  expires_at: z.iso.datetime().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to creating a token: the only time its secret is shown. */
export const apiTokenCreatedSchema = apiTokenSchema.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

/** `GET /api/me/api-tokens`: the user's tokens, newest first, and whether this server accepts tokens at all. */
export const apiTokenListSchema = z.object({ enabled: z.boolean(), tokens: z.array(apiTokenSchema) });
export type ApiTokenList = z.infer<typeof apiTokenListSchema>;

export const apiTokenSettingsSchema = z.object({ enabled: z.boolean() });
export type ApiTokenSettings = z.infer<typeof apiTokenSettingsSchema>;
