import type { SqlRunner } from '../db/migrate';
import type { ParsedSearchQuery } from './search-query';

/**
 * Reads the search index that migration 0013_document_search keeps current with a trigger on `documents`
 * (so this module never writes). Raw SQL: tsvector, tsquery and ts_headline have no query-builder form.
 */

// Matched words come back between these private-use characters; the service escapes the text and turns
// them into <mark> (ts_headline would otherwise need markup inside text it does not escape).
export const MATCH_START = '\uE000';
export const MATCH_END = '\uE001';

export interface SearchHitRow {
  id: string;
  title: string;
  snippet: string;
  updated_at: Date | string;
  rank: number | string;
}

export interface LibraryRow {
  id: string;
  title: string;
  text_preview: string;
  created_at: Date | string;
  updated_at: Date | string;
  is_public: boolean;
  total: number | string;
}

// The query: web-search syntax for what is complete, a prefix for the word being typed, ANDed. An empty
// part (all stop words) drops out: `numnode` is 0 for an empty tsquery.
const TSQUERY = `(
  SELECT CASE
    WHEN numnode(full_part) = 0 THEN prefix_part
    WHEN numnode(prefix_part) = 0 THEN full_part
    ELSE full_part && prefix_part
  END AS q
  FROM (
    SELECT websearch_to_tsquery('english', $2::text) AS full_part,
      CASE WHEN $3::text = '' THEN ''::tsquery ELSE to_tsquery('english', $3::text || ':*') END AS prefix_part
  ) AS parts
)`;

// Title words (A) weigh ten times body words (B), so a title hit ranks above a body hit.
const SEARCH_SQL = `
WITH query AS ${TSQUERY},
hits AS (
  SELECT d.id, d.title, d.content, d.updated_at,
    ts_rank('{0, 0, 0.1, 1.0}', d.search_vector, query.q) AS rank
  FROM documents d, query
  WHERE d.user_id = $1 AND numnode(query.q) > 0 AND d.search_vector @@ query.q
  ORDER BY rank DESC, d.updated_at DESC
  LIMIT $4
)
SELECT hits.id, hits.title, hits.updated_at, hits.rank,
  ts_headline('english', document_plain_text(hits.content), query.q,
    'StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "'
  ) AS snippet
FROM hits, query
ORDER BY hits.rank DESC, hits.updated_at DESC`;

export async function searchDocuments(
  exec: SqlRunner,
  userId: string,
  query: ParsedSearchQuery,
  limit: number,
): Promise<SearchHitRow[]> {
  return (await exec(SEARCH_SQL, [userId, query.phrase, query.prefix, limit])) as SearchHitRow[];
}

export type LibrarySort = 'updated' | 'title' | 'created';

const LIBRARY_ORDER: Record<LibrarySort, string> = {
  updated: 'updated_at DESC, created_at DESC, id',
  created: 'created_at DESC, id',
  title: 'lower(title), title, id',
};

/** One page of the user's documents with their opening text, and how many there are in all. */
export async function listLibrary(
  exec: SqlRunner,
  userId: string,
  sort: LibrarySort,
  limit: number,
  offset: number,
): Promise<LibraryRow[]> {
  return (await exec(
    `SELECT id, title, text_preview, created_at, updated_at, is_public, count(*) OVER () AS total
     FROM documents WHERE user_id = $1 ORDER BY ${LIBRARY_ORDER[sort]} LIMIT $2 OFFSET $3`,
    [userId, limit, offset],
  )) as LibraryRow[];
}
