/**
 * Client-side shapes of the accounts API (issue 2 contract). Kept structural so they match the server's zod
 * schemas in src/shared/schemas/auth.ts without depending on their exact names.
 */
export interface AuthUser {
  id: string;
  email: string;
  user_metadata: { full_name?: string | null } & Record<string, unknown>;
  created_at: string;
  email_confirmed_at: string | null;
  /** Instance role (absent in sessions saved before roles existed: treated as member). */
  role?: 'admin' | 'member';
}

export interface AuthSession {
  access_token: string;
  refresh_token: string;
  /** Seconds the access token lives. */
  expires_in: number;
  /** Unix time (seconds) when the access token expires. */
  expires_at: number;
  token_type: string;
  user: AuthUser;
}

export type AuthDialogMode = 'signin' | 'signup' | 'reset';
