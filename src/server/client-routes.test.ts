import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'regexparam';
import { expect, it } from 'vitest';
import { CLIENT_ROUTE_PATTERNS, isClientRoute } from '../shared/client-routes';

const ROUTES_FILE = path.resolve(import.meta.dirname, '../client/routes.tsx');

it('lists exactly the routes the client router draws a page for', () => {
  const source = readFileSync(ROUTES_FILE, 'utf8');
  const routed = [...source.matchAll(/<Route\s+path="([^"]+)"/g)].map((match) => match[1]);
  expect([...routed].sort()).toEqual([...CLIENT_ROUTE_PATTERNS].sort());
});

it('matches a path exactly when the router (wouter, through regexparam) does', () => {
  const paths = [
    '/',
    '/editor',
    '/editor/',
    '/editor/3f1c',
    '/editor/3f1c/',
    '/editor/3f1c/extra',
    '/Privacy',
    '/privacy/',
    '/terms',
    '/shared/abc',
    '/shared',
    '/auth/confirm',
    '/auth',
    '/subscription-success',
    '/no-such-page',
    '/privacy-policy',
    '/favicon.ico.old',
  ];
  for (const pathname of paths) {
    const routerMatches = CLIENT_ROUTE_PATTERNS.some((pattern) => parse(pattern).pattern.test(pathname));
    expect(isClientRoute(pathname), pathname).toBe(routerMatches);
  }
  expect(isClientRoute('/no-such-page')).toBe(false);
  expect(isClientRoute('/editor/3f1c')).toBe(true);
});
