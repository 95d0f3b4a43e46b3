import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { AUTH_TICK_MS } from '@shared/constants';
import { toast } from '@client/components/ui/use-toast';
import { ApiError, errorMessage } from '@client/lib/api';
import { clearQueryCache } from '@client/lib/query-cache';
import {
  getUserRequest,
  signInRequest,
  signOutRequest,
  signUpRequest,
  recoverRequest,
  updateUserRequest,
  verifyRequest,
  type EmailTokenType,
  type UserUpdate,
} from './api';
import {
  getSession,
  needsRefresh,
  refreshSession,
  setSession,
  subscribeSession,
} from '@client/lib/session-store';
import type { AuthSession, AuthUser } from './types';

/** Auth calls return the error to the caller instead of throwing, so the dialog can show it. */
export interface AuthResult {
  error: ApiError | Error | null;
}

export interface AuthContextValue {
  user: AuthUser | null;
  session: AuthSession | null;
  /** True until the stored session has been read (and refreshed when it was about to expire). */
  loading: boolean;
  signIn(email: string, password: string): Promise<AuthResult>;
  signUp(
    email: string,
    password: string,
    fullName: string,
  ): Promise<AuthResult & { session: AuthSession | null; user: AuthUser | null }>;
  signOut(): Promise<AuthResult>;
  resetPassword(email: string): Promise<AuthResult>;
  updateUser(update: UserUpdate): Promise<AuthResult & { user: AuthUser | null }>;
  /** Exchanges an e-mailed token (recovery or sign-up confirmation) for a session and signs in. */
  verifyEmailToken(type: EmailTokenType, token: string): Promise<AuthResult>;
  /** The current access token, or null when signed out. */
  accessToken(): string | null;
}

const AuthContext = createContext<AuthContextValue | null>(null);

function asError(error: unknown): ApiError | Error {
  return error instanceof Error ? error : new Error(String(error));
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [, navigate] = useLocation();
  const [session, setSessionState] = useState<AuthSession | null>(() => getSession());
  // Only a stored session about to expire has anything to wait for (its refresh, below); a visitor without one
  // sees their page in the first render instead of a spinner first.
  const [loading, setLoading] = useState(() => {
    const stored = getSession();
    return stored !== null && needsRefresh(stored);
  });

  // Follow the store: this tab's sign-in/refresh/sign-out and other tabs' (storage event).
  useEffect(() => {
    return subscribeSession((next) => {
      setSessionState((previous) => {
        if (previous?.user.id !== next?.user.id) clearQueryCache();
        return next;
      });
    });
  }, []);

  // Initial session: read from storage, refreshed first when it is about to expire.
  useEffect(() => {
    let cancelled = false;
    const stored = getSession();
    const ready =
      stored && needsRefresh(stored) ? refreshSession().catch(() => getSession()) : Promise.resolve();
    void ready.finally(() => {
      if (cancelled) return;
      setSessionState(getSession());
      setLoading(false);
      // The stored user may be stale (name or e-mail changed in another browser): refresh it quietly.
      // A dead session answers 401, which signs out through the refresh attempt in apiRequest.
      const current = getSession();
      if (!current) return;
      getUserRequest()
        .then((user) => {
          const latest = getSession();
          if (latest && latest.user.id === user.id) setSession({ ...latest, user });
        })
        .catch((error: unknown) => console.warn('Could not refresh the signed-in user', error));
    });
    return () => {
      cancelled = true;
    };
  }, []);

  // Check every 30 s, refresh when ~90 s remain: a session never expires while the tab is open.
  useEffect(() => {
    const id = window.setInterval(() => {
      const current = getSession();
      if (current && needsRefresh(current)) {
        refreshSession().catch((error: unknown) => console.warn('Session refresh failed', error));
      }
    }, AUTH_TICK_MS);
    return () => window.clearInterval(id);
  }, []);

  const signIn = useCallback(async (email: string, password: string): Promise<AuthResult> => {
    try {
      setSession(await signInRequest({ email, password }));
      return { error: null };
    } catch (error) {
      return { error: asError(error) };
    }
  }, []);

  const signUp = useCallback(async (email: string, password: string, fullName: string) => {
    try {
      const result = await signUpRequest({ email, password, data: { full_name: fullName } });
      if (result.session) setSession(result.session);
      return { error: null, session: result.session, user: result.user };
    } catch (error) {
      return { error: asError(error), session: null, user: null };
    }
  }, []);

  const signOut = useCallback(async (): Promise<AuthResult> => {
    try {
      await signOutRequest('local');
    } catch (error) {
      // A 401 means the session is already gone on the server: finish signing out locally.
      if (!(error instanceof ApiError && error.status === 401)) {
        console.error('Sign out failed', error);
        toast({ title: 'Sign out failed', description: errorMessage(error), variant: 'destructive' });
        return { error: asError(error) };
      }
    }
    setSession(null);
    clearQueryCache();
    navigate('/');
    toast({ title: 'Signed out successfully', description: 'See you next time.' });
    return { error: null };
  }, [navigate]);

  const resetPassword = useCallback(async (email: string): Promise<AuthResult> => {
    try {
      await recoverRequest(email);
      return { error: null };
    } catch (error) {
      return { error: asError(error) };
    }
  }, []);

  const updateUser = useCallback(async (update: UserUpdate) => {
    try {
      const user = await updateUserRequest(update);
      const current = getSession();
      if (current) setSession({ ...current, user });
      return { error: null, user };
    } catch (error) {
      return { error: asError(error), user: null };
    }
  }, []);

  const verifyEmailToken = useCallback(
    async (type: 'recovery' | 'signup', token: string): Promise<AuthResult> => {
      try {
        setSession(await verifyRequest({ type, token }));
        return { error: null };
      } catch (error) {
        return { error: asError(error) };
      }
    },
    [],
  );

  const value = useMemo<AuthContextValue>(
    () => ({
      user: session?.user ?? null,
      session,
      loading,
      signIn,
      signUp,
      signOut,
      resetPassword,
      updateUser,
      verifyEmailToken,
      accessToken: () => getSession()?.access_token ?? null,
    }),
    [session, loading, signIn, signUp, signOut, resetPassword, updateUser, verifyEmailToken],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
