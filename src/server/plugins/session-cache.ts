import type { Db } from '../db/client';

/**
 * Sessions recently confirmed active, so that a burst of requests from one signed-in writer (a streamed AI
 * answer per paragraph, autosaves) does not ask the database the same question each time. Every revocation
 * made by this process forgets the whole cache at once, so on a single instance a signed-out token stops
 * working immediately; a revocation made by another instance reaches this one within
 * SESSION_CHECK_CACHE_MS, the same bound within which live-collaboration sockets re-check their session.
 */
export const SESSION_CHECK_CACHE_MS = 2_000;
/**
 * A session's "last seen" (sessions list) is written when a request finds it older than this: a few writes an
 * hour per active session instead of one per request.
 */
export const LAST_SEEN_UPDATE_MS = 5 * 60_000;
/** Enough for every writer of a large instance; past it the cache starts over rather than growing. */
const MAX_CACHED_SESSIONS = 10_000;

const caches = new WeakMap<Db, Map<string, number>>();

function cacheFor(db: Db): Map<string, number> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

const key = (sessionId: string, userId: string) => `${sessionId}:${userId}`;

export function isRecentlyActiveSession(db: Db, sessionId: string, userId: string): boolean {
  const until = caches.get(db)?.get(key(sessionId, userId));
  return until !== undefined && until > Date.now();
}

export function rememberActiveSession(db: Db, sessionId: string, userId: string): void {
  const cache = cacheFor(db);
  if (cache.size >= MAX_CACHED_SESSIONS) cache.clear();
  cache.set(key(sessionId, userId), Date.now() + SESSION_CHECK_CACHE_MS);
}

/** Call after any change that can end a session (sign-out, refresh-token reuse, password change). */
export function forgetActiveSessions(db: Db): void {
  caches.get(db)?.clear();
}
