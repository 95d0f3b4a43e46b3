import { apiRequest } from '@client/lib/api';
import type { AuthSession, AuthUser } from './types';

/** Plain fetchers for /api/auth (docs/accounts.md). */

export function signUpRequest(input: { email: string; password: string; data?: { full_name?: string } }) {
  return apiRequest<{ user: AuthUser; session: AuthSession | null }>('POST', '/api/auth/signup', input, {
    anonymous: true,
  });
}

export function signInRequest(input: { email: string; password: string }) {
  return apiRequest<AuthSession>('POST', '/api/auth/token?grant_type=password', input, { anonymous: true });
}

export function signOutRequest(scope: 'local' | 'global' | 'others' = 'local') {
  return apiRequest<null>('POST', `/api/auth/logout?scope=${scope}`);
}

export function recoverRequest(email: string) {
  return apiRequest<Record<string, never>>('POST', '/api/auth/recover', { email }, { anonymous: true });
}

export function verifyRequest(input: { type: EmailTokenType; token: string }) {
  return apiRequest<AuthSession>('POST', '/api/auth/verify', input, { anonymous: true });
}

export type EmailTokenType = 'recovery' | 'signup' | 'email_change';

export interface UserUpdate {
  email?: string;
  password?: string;
  /** Needed for a new password or e-mail unless this session signed in a few minutes ago. */
  current_password?: string;
  data?: { full_name?: string };
}

export function getUserRequest() {
  return apiRequest<AuthUser>('GET', '/api/auth/user');
}

export function updateUserRequest(input: UserUpdate) {
  return apiRequest<AuthUser>('PUT', '/api/auth/user', input);
}

/** One signed-in session of the user (the sessions list in account settings). */
export interface SessionSummary {
  id: string;
  /** "Chrome on Linux". */
  device: string;
  created_at: string;
  /** Approximate (updated every few minutes). */
  last_seen_at: string;
  /** The session of this browser. */
  current: boolean;
}

export const SESSIONS_PATH = '/api/auth/sessions';

export function listSessionsRequest() {
  return apiRequest<SessionSummary[]>('GET', SESSIONS_PATH);
}

export function revokeSessionRequest(id: string) {
  return apiRequest<null>('DELETE', `${SESSIONS_PATH}/${encodeURIComponent(id)}`);
}

export const SETUP_PATH = '/api/auth/setup';

export function setupStatusRequest() {
  return apiRequest<{ has_admin: boolean }>('GET', SETUP_PATH);
}

/** Redeems the setup code from the server log: the signed-in account becomes the instance admin. */
export function claimInstanceRequest(code: string) {
  return apiRequest<AuthUser>('POST', SETUP_PATH, { code });
}
