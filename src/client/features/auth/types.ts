// The session's shapes live with the session store (lib/session-store.ts), which the API client reads too.
export type { AuthSession, AuthUser } from '@client/lib/session-store';

export type AuthDialogMode = 'signin' | 'signup' | 'reset';
