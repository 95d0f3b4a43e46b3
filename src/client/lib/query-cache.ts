/**
 * The query cache exists from the first page that reads server data on (lib/query-client.ts registers it here).
 * Auth, which every page has, clears it through this module without importing TanStack Query, so the landing
 * page's first bundle holds none of it; before the cache exists there is nothing to clear.
 */
let clearCache: (() => void) | null = null;

export function registerQueryCache(clear: () => void): void {
  clearCache = clear;
}

/** Forgets every cached answer (another user signed in, or the user signed out). */
export function clearQueryCache(): void {
  clearCache?.();
}
