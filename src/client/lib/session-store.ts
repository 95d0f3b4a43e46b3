import { AUTH_REFRESH_MARGIN_TICKS, AUTH_TICK_MS } from '@shared/constants';
// The first-paint script in index.html's head reads the same key (a stored session hides the visitors' page).
import { SESSION_STORAGE_KEY } from '@shared/first-paint';

/**
 * Client-side shapes of the accounts API (docs/accounts.md "API"). Kept structural so they match the server's
 * zod schemas in src/shared/schemas/auth.ts without depending on their exact names.
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

/**
 * The one place the session lives in the browser: memory + localStorage, shared by every tab.
 * Framework-free so the API client can read the token without React. AuthProvider subscribes to it.
 */
const REFRESH_LOCK = 'quillwright.auth.refresh';

type Listener = (session: AuthSession | null) => void;

const listeners = new Set<Listener>();
let current: AuthSession | null = readStored();

function isSession(value: unknown): value is AuthSession {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.access_token === 'string' &&
    typeof v.refresh_token === 'string' &&
    typeof v.expires_at === 'number' &&
    !!v.user &&
    typeof v.user === 'object'
  );
}

function readStored(): AuthSession | null {
  if (typeof localStorage === 'undefined') return null;
  try {
    const raw = localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return isSession(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function notify(): void {
  listeners.forEach((listener) => listener(current));
}

export function getSession(): AuthSession | null {
  return current;
}

export function setSession(session: AuthSession | null): void {
  current = session;
  try {
    if (session) localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
    else localStorage.removeItem(SESSION_STORAGE_KEY);
  } catch {
    // Storage full or blocked (private mode): the session still lives in memory for this tab.
  }
  notify();
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

// Another tab signed in, refreshed or signed out: adopt its session.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== SESSION_STORAGE_KEY && event.key !== null) return;
    current = readStored();
    notify();
  });
}

/** Seconds until the access token expires (negative when already expired). */
function secondsLeft(session: AuthSession, now = Date.now()): number {
  return session.expires_at - now / 1000;
}

/** Refresh when about AUTH_REFRESH_MARGIN_TICKS ticks (90 s) or less remain. */
export function needsRefresh(session: AuthSession, now = Date.now()): boolean {
  return secondsLeft(session, now) * 1000 <= AUTH_TICK_MS * AUTH_REFRESH_MARGIN_TICKS;
}

class RefreshFailedError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'RefreshFailedError';
  }
}

let inFlight: Promise<AuthSession | null> | null = null;

async function doRefresh(): Promise<AuthSession | null> {
  // Another tab may have rotated the token while we waited for the lock: take its session instead of
  // presenting an already-rotated refresh token (which the server treats as theft and revokes the family).
  const stored = readStored();
  if (stored && (!current || stored.refresh_token !== current.refresh_token)) {
    current = stored;
    notify();
  }
  const session = current;
  if (!session) return null;
  if (!needsRefresh(session)) return session;

  const response = await fetch('/api/auth/token?grant_type=refresh_token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    credentials: 'include',
    body: JSON.stringify({ refresh_token: session.refresh_token }),
  });
  if (response.ok) {
    const next: unknown = await response.json();
    if (!isSession(next)) throw new RefreshFailedError('Malformed session from the server', response.status);
    setSession(next);
    return next;
  }
  if (response.status === 400 || response.status === 401 || response.status === 403) {
    // The refresh token is dead (expired, revoked, reused): the user is signed out.
    if (getSession()?.refresh_token === session.refresh_token) setSession(null);
    return null;
  }
  // 5xx / 429: keep the session and try again on the next tick.
  throw new RefreshFailedError(`${response.status}: ${response.statusText}`, response.status);
}

/**
 * Refreshes the session when it is close to expiry. One refresh at a time per tab, and across tabs through the
 * Web Locks API when the browser has it. Resolves to the (possibly unchanged) session, or null when signed out.
 */
export function refreshSession(): Promise<AuthSession | null> {
  if (inFlight) return inFlight;
  const run = () => doRefresh();
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  inFlight = (locks ? locks.request(REFRESH_LOCK, run) : run()).finally(() => {
    inFlight = null;
  });
  return inFlight;
}

/** Forces the next refreshSession() to refresh even when the token is not near expiry (after a 401). */
export function markExpired(): void {
  if (current) current = { ...current, expires_at: 0 };
}
