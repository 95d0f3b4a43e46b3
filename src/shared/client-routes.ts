/**
 * The paths the client's router draws a page for (client/routes.tsx, in wouter's pattern syntax: `:name` is one
 * path segment, `:name?` an optional one). The server answers any other path with 404 and the app's not-found
 * page; a test keeps this list and the router's routes the same.
 */
export const CLIENT_ROUTE_PATTERNS = [
  '/',
  '/editor/:id?',
  '/subscription-success',
  '/subscription-cancel',
  '/privacy',
  '/terms',
  '/shared/:id',
  '/shared-with-me/:id',
  '/reset-password',
  '/auth/confirm',
  '/status',
  '/trash',
  '/docs/api',
  '/oauth/authorize',
] as const;

/** A pattern as wouter reads it (regexparam): case-insensitive, an optional trailing slash. */
function patternToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('/')
    .filter(Boolean)
    .map((segment) =>
      segment.startsWith(':')
        ? segment.endsWith('?')
          ? '(?:/[^/]+?)?'
          : '/[^/]+?'
        : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    )
    .join('');
  return new RegExp(`^${source}/?$`, 'i');
}

const CLIENT_ROUTES = CLIENT_ROUTE_PATTERNS.map(patternToRegExp);

/** Whether the client has a page for this path (anything else is its not-found screen). */
export function isClientRoute(pathname: string): boolean {
  return CLIENT_ROUTES.some((route) => route.test(pathname));
}
