import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants';

/**
 * Request and response shapes of /api/auth (docs/accounts.md "API"). The server validates bodies with these;
 * the client types its calls and responses with them.
 */

/** Longest accepted password: hashing cost is bounded, and nobody types more. Longer is 400 validation_failed. */
const MAX_PASSWORD_LENGTH = 1024;
const MAX_FULL_NAME_LENGTH = 200;
const MAX_EMAIL_LENGTH = 254;

/** E-mail addresses are trimmed and lower-cased before anything else looks at them. */
export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .max(MAX_EMAIL_LENGTH, 'Email is too long')
  .pipe(z.email('Invalid email address'));

/** Strength is judged by the server (422 weak_password with reasons), not by this schema. */
const passwordSchema = z
  .string({ error: 'Password is required' })
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

const fullNameSchema = z.string().trim().max(MAX_FULL_NAME_LENGTH);

const userMetadataInputSchema = z.object({ full_name: fullNameSchema.optional() });

/** Sign-up requires e-mail, password and full name; the name travels as `data.full_name`. */
export const signUpBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  data: z.object(
    { full_name: fullNameSchema.min(1, 'Full name is required') },
    { error: 'Full name is required (data.full_name)' },
  ),
});
export type SignUpBody = z.infer<typeof signUpBodySchema>;

const grantTypeSchema = z.enum(['password', 'refresh_token']);
export const tokenQuerySchema = z.object({ grant_type: grantTypeSchema });

export const passwordGrantBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema.min(1, 'Password is required'),
});
export type PasswordGrantBody = z.infer<typeof passwordGrantBodySchema>;

export const refreshGrantBodySchema = z.object({
  refresh_token: z.string({ error: 'refresh_token is required' }).min(1).max(512),
});

const logoutScopeSchema = z.enum(['local', 'global', 'others']);
export type LogoutScope = z.infer<typeof logoutScopeSchema>;
export const logoutQuerySchema = z.object({ scope: logoutScopeSchema.default('local') });

export const recoverBodySchema = z.object({ email: emailSchema });

/** Ask for a new sign-up confirmation mail (when SMTP is configured). Always 200 {}. */
export const resendBodySchema = z.object({ type: z.literal('signup'), email: emailSchema });

/**
 * Types of e-mailed one-time tokens. Links: recovery → `/reset-password?token=…`; signup and email_change →
 * `/auth/confirm?token=…&type=…`. The page posts `{ type, token }` to /api/auth/verify.
 */
const emailTokenTypeSchema = z.enum(['recovery', 'signup', 'email_change']);
export type EmailTokenType = z.infer<typeof emailTokenTypeSchema>;

export const verifyBodySchema = z.object({
  type: emailTokenTypeSchema,
  token: z.string({ error: 'token is required' }).min(1).max(512),
});
export type VerifyBody = z.infer<typeof verifyBodySchema>;

export const updateUserBodySchema = z.object({
  email: emailSchema.optional(),
  password: passwordSchema.optional(),
  /**
   * Required to change the password or the e-mail unless the session signed in a few minutes ago
   * (otherwise 401 reauthentication_needed): a copied access token alone cannot take the account.
   */
  current_password: passwordSchema.optional(),
  data: userMetadataInputSchema.optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBodySchema>;

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  user_metadata: z.object({ full_name: z.string() }),
  created_at: z.string(),
  email_confirmed_at: z.string().nullable(),
  /** Instance role: admins manage the AI providers and allowances. */
  role: z.enum(['admin', 'member']),
});
export type User = z.infer<typeof userSchema>;

export const sessionSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  /** Seconds the access token is valid from issue. */
  expires_in: z.number(),
  /** Unix time (seconds) when the access token expires. */
  expires_at: z.number(),
  token_type: z.literal('bearer'),
  user: userSchema,
});
export type Session = z.infer<typeof sessionSchema>;

/** One signed-in session in the sessions list of account settings. */
export const sessionSummarySchema = z.object({
  id: z.string(),
  /** "Chrome on Linux", from the User-Agent of the sign-in. */
  device: z.string(),
  created_at: z.string(),
  /** Approximate: updated at most every few minutes. */
  last_seen_at: z.string(),
  /** The session making the request ("This device"). */
  current: z.boolean(),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

export const sessionIdParamsSchema = z.object({ id: z.uuid('Session not found') });

/** Claiming an instance that has no admin yet with the setup code printed in the server log. */
export const setupCodeBodySchema = z.object({
  code: z.string({ error: 'Setup code is required' }).trim().min(1, 'Setup code is required').max(64),
});

/** `session` is null when the e-mail must be confirmed first (SMTP configured). */
export const signUpResponseSchema = z.object({ user: userSchema, session: sessionSchema.nullable() });
export type SignUpResponse = z.infer<typeof signUpResponseSchema>;

/** Machine-readable reasons of a 422 weak_password error, with the sentence to show for each. */
export const WEAK_PASSWORD_REASONS = {
  length: `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`,
  common: 'Password is too common and easy to guess.',
  email: 'Password must not be your email address.',
} as const;
export type WeakPasswordReason = keyof typeof WEAK_PASSWORD_REASONS;
