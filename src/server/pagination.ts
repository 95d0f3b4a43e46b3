import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { API_LIST_DEFAULT_LIMIT, API_LIST_MAX_LIMIT } from '../shared/constants';
import { AppError } from './errors';
import { parseInput } from './validation';

/**
 * Cursor paging of the REST lists (docs/api.md): `?limit=` and `?cursor=`, the body keeps its shape and the next
 * page is named by a `Link: <…>; rel="next"` header. A cursor is the last row's place in the list's order,
 * (sort time, tie-breaking key), and a page is the rows after it: keyset, never an offset, so rows added
 * meanwhile neither repeat nor push others out of the walk. The sort time travels as microseconds since the
 * epoch (the database's precision; a JavaScript Date would round it to milliseconds and lose rows at the seam).
 */

/** Where a page starts: after the row whose sort time is `at` (µs since the epoch) and key is `key`. */
export interface PageAfter {
  at: string;
  key: string;
}

export interface PageRequest {
  limit: number;
  after: PageAfter | undefined;
}

const MAX_CURSOR_LENGTH = 200;
/** `?limit=` and `?cursor=` (the OpenAPI catalog documents the paged routes with it). */
export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(API_LIST_MAX_LIMIT).default(API_LIST_DEFAULT_LIMIT),
  cursor: z.string().optional(),
});

const invalidCursor = () =>
  new AppError(400, 'invalid_cursor', 'The cursor is not one this list gave out; start again without it');

const MICROS = /^-?\d{1,19}$/;
const KEY = /^[0-9a-zA-Z-]{1,64}$/;

export function encodeCursor(after: PageAfter): string {
  return Buffer.from(JSON.stringify([after.at, after.key])).toString('base64url');
}

function decodeCursor(cursor: string): PageAfter {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor))
    throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw invalidCursor();
  const [at, key] = parsed as unknown[];
  if (typeof at !== 'string' || !MICROS.test(at) || typeof key !== 'string' || !KEY.test(key))
    throw invalidCursor();
  return { at, key };
}

/** `?limit=` and `?cursor=` of a request (400 `validation_failed` for a bad limit, `invalid_cursor` for a bad cursor). */
export function parsePageQuery(query: unknown): PageRequest {
  const { limit, cursor } = parseInput(pageQuerySchema, pickPageParams(query));
  return { limit, after: cursor === undefined ? undefined : decodeCursor(cursor) };
}

function pickPageParams(query: unknown): { limit?: unknown; cursor?: unknown } {
  if (!query || typeof query !== 'object') return {};
  const { limit, cursor } = query as { limit?: unknown; cursor?: unknown };
  return { limit, cursor };
}

/** The column's time as µs since the epoch, as text (exact: extract(epoch) is numeric). */
export function micros(column: AnyColumn | SQL): SQL<string> {
  return sql<string>`(extract(epoch from ${column}) * 1000000)::bigint::text`;
}

/**
 * The rows after `after` in a list ordered newest first by (time, key), both descending. `key` is compared as
 * the column's own type (uuid or bigint).
 */
export function afterInDescendingOrder(time: AnyColumn, key: AnyColumn, after: PageAfter): SQL {
  return sql`((extract(epoch from ${time}) * 1000000)::bigint, ${key}) < (${after.at}::bigint, ${after.key})`;
}

/**
 * A page of rows fetched with `limit + 1` (the extra row only says whether there is more): the rows to answer,
 * and the cursor of the next page when there is one.
 */
export function pageOf<T>(
  rows: T[],
  limit: number,
  placeOf: (row: T) => PageAfter,
): { rows: T[]; next: string | undefined } {
  if (rows.length <= limit) return { rows, next: undefined };
  const page = rows.slice(0, limit);
  return { rows: page, next: encodeCursor(placeOf(page[page.length - 1]!)) };
}

/** Sets `Link: <…>; rel="next"` (the request's own path and query with the next cursor) when there is a next page. */
export function linkNextPage(request: FastifyRequest, reply: FastifyReply, next: string | undefined): void {
  if (next === undefined) return;
  const url = new URL(request.url, 'http://localhost');
  url.searchParams.set('cursor', next);
  reply.header('link', `<${url.pathname}${url.search}>; rel="next"`);
}
