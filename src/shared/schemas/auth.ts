import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../constants';

/**
 * Request and response shapes of /api/auth (issue 2's contract). The server validates bodies with these;
 * the client types its calls and responses with them.
 */

/** Longest accepted password: hashing cost is bounded, and nobody types more. Longer is 400 validation_failed. */
export const MAX_PASSWORD_LENGTH = 1024;
export const MAX_FULL_NAME_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;

/** E-mail addresses are trimmed and lower-cased before anything else looks at them. */
export const emailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .max(MAX_EMAIL_LENGTH, 'Email is too long')
  .pipe(z.email('Invalid email address'));

/** Strength is judged by the server (422 weak_password with reasons), not by this schema. */
export const passwordSchema = z
  .string({ error: 'Password is required' })
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters`);

export const fullNameSchema = z.string().trim().max(MAX_FULL_NAME_LENGTH);

export const userMetadataInputSchema = z.object({ full_name: fullNameSchema.optional() });

/** SPEC §5 and §2: sign-up requires the full name, sent as `data.full_name`. */
export const signUpBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  data: z.object(
    { full_name: fullNameSchema.min(1, 'Full name is required') },
    { error: 'Full name is required (data.full_name)' },
  ),
});
export type SignUpBody = z.infer<typeof signUpBodySchema>;

export const grantTypeSchema = z.enum(['password', 'refresh_token']);
export const tokenQuerySchema = z.object({ grant_type: grantTypeSchema });

export const passwordGrantBodySchema = z.object({
  email: emailSchema,
  password: passwordSchema.min(1, 'Password is required'),
});
export type PasswordGrantBody = z.infer<typeof passwordGrantBodySchema>;

export const refreshGrantBodySchema = z.object({
  refresh_token: z.string({ error: 'refresh_token is required' }).min(1).max(512),
});
export type RefreshGrantBody = z.infer<typeof refreshGrantBodySchema>;

export const logoutScopeSchema = z.enum(['local', 'global', 'others']);
export type LogoutScope = z.infer<typeof logoutScopeSchema>;
export const logoutQuerySchema = z.object({ scope: logoutScopeSchema.default('local') });

export const recoverBodySchema = z.object({ email: emailSchema });
export type RecoverBody = z.infer<typeof recoverBodySchema>;

/** Ask for a new sign-up confirmation mail (when SMTP is configured). Always 200 {}. */
export const resendBodySchema = z.object({ type: z.literal('signup'), email: emailSchema });
export type ResendBody = z.infer<typeof resendBodySchema>;

/**
 * Types of e-mailed one-time tokens. Links: recovery → `/reset-password?token=…`; signup and email_change →
 * `/auth/confirm?token=…&type=…`. The page posts `{ type, token }` to /api/auth/verify.
 */
export const emailTokenTypeSchema = z.enum(['recovery', 'signup', 'email_change']);
export type EmailTokenType = z.infer<typeof emailTokenTypeSchema>;

export const verifyBodySchema = z.object({
  type: emailTokenTypeSchema,
  token: z.string({ error: 'token is required' }).min(1).max(512),
});
export type VerifyBody = z.infer<typeof verifyBodySchema>;

export const updateUserBodySchema = z.object({
  email: emailSchema.optional(),
  password: passwordSchema.optional(),
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

/** Auth error codes the client may branch on (never on message text). */
export const AUTH_ERROR_CODES = [
  'validation_failed',
  'weak_password',
  'same_password',
  'user_already_exists',
  'email_exists',
  'invalid_credentials',
  'email_not_confirmed',
  'refresh_token_invalid',
  'session_missing',
  'session_not_found',
  'bad_jwt',
  'otp_expired',
  'over_request_rate_limit',
] as const;
export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[number];
