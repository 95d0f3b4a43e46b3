import { apiRequest } from '@client/lib/api';
import type { AuthSession, AuthUser } from './types';

/** Plain fetchers for /api/auth (issue 2 contract). */

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
  data?: { full_name?: string };
}

export function getUserRequest() {
  return apiRequest<AuthUser>('GET', '/api/auth/user');
}

export function updateUserRequest(input: UserUpdate) {
  return apiRequest<AuthUser>('PUT', '/api/auth/user', input);
}
