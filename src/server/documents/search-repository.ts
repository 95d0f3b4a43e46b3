import type { SqlRunner } from '../db/migrate';

/**
 * Reads the search index that migration 0013_document_search keeps current with a trigger on `documents`
 * (so this module never writes). Raw SQL: tsvector, tsquery and ts_headline have no query-builder form.
 */

// Matched words come back between these private-use characters; the service escapes the text and turns
// them into <mark> (ts_headline would otherwise need markup inside text it does not escape).
export const MATCH_START = '\uE000';
export const MATCH_END = '\uE001';

/** What the search statement matches: search/search-query.ts makes it from what a person typed. */
export interface ParsedSearchQuery {
  /** For websearch_to_tsquery; may be empty. */
  phrase: string;
  /** Letters and digits only, ready for `to_tsquery(word || ':*')`; empty when there is none. */
  prefix: string;
}

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
  folder_id: string | null;
  pinned: boolean;
  total: number | string;
}

// The query: web-search syntax for what is complete, a prefix for the word being typed, ANDed (an empty
// part, e.g. only stop words, drops out of `&&`). Written out where it is used rather than in a CTE: it
// folds to a constant at planning, so the planner sees how common its words are and picks the index
// (a rare word) or a walk down the most recently updated documents (a common one).
const PREFIX_PART = `to_tsquery('english', CASE WHEN $3::text = '' THEN '' ELSE $3::text || ':*' END)`;
const Q = `(CASE WHEN numnode(websearch_to_tsquery('english', $2::text)) = 0 THEN ${PREFIX_PART}
  ELSE websearch_to_tsquery('english', $2::text) && ${PREFIX_PART} END)`;

/**
 * Candidates, then ranking. Ranking reads each candidate's body vector (kilobytes, stored out of line), so
 * it runs over at most SEARCH_CANDIDATES documents: every title match (up to that many) and the most
 * recently updated body matches. A word found in thousands of documents is thus ranked among the latest
 * of them, which keeps a search in tens of milliseconds at 10,000 documents (bench:search).
 * Title words (A) weigh ten times body words (B), so a title hit ranks above a body hit.
 * The snippet is ts_headline over a window of the stored plain text around the first appearance of the
 * query's first stem (parsing a whole long document per hit would cost about a millisecond each).
 */
const SEARCH_CANDIDATES = 100;

// $5: a folder to search in (with its sub-folders), or null for every document.
const IN_FOLDER = `($5::uuid IS NULL OR d.folder_id IN (SELECT id FROM in_folder))`;

const SEARCH_SQL = `
WITH RECURSIVE in_folder AS (
  SELECT f.id FROM folders f WHERE f.id = $5::uuid AND f.user_id = $1 AND f.trashed_at IS NULL
  UNION ALL
  SELECT f.id FROM folders f JOIN in_folder ON f.parent_id = in_folder.id WHERE f.trashed_at IS NULL
),
candidates AS (
  (SELECT d.id FROM documents d
   WHERE d.user_id = $1 AND d.trashed_at IS NULL AND ${IN_FOLDER} AND to_tsvector('english', d.title) @@ ${Q}
   ORDER BY d.updated_at DESC LIMIT ${SEARCH_CANDIDATES})
  UNION
  (SELECT d.id FROM documents d
   WHERE d.user_id = $1 AND d.trashed_at IS NULL AND ${IN_FOLDER} AND d.search_vector @@ ${Q}
   ORDER BY d.updated_at DESC LIMIT ${SEARCH_CANDIDATES})
),
ranked AS MATERIALIZED (
  SELECT d.id, d.title, d.updated_at, ts_rank('{0, 0, 0.1, 1.0}', d.search_vector, ${Q}) AS rank
  FROM candidates JOIN documents d USING (id)
  ORDER BY rank DESC, d.updated_at DESC
  LIMIT $4
),
hits AS MATERIALIZED (
  SELECT ranked.*, d.search_text AS body FROM ranked JOIN documents d USING (id)
),
probe AS MATERIALIZED (
  SELECT left(stem, greatest(3, length(stem) - 1)) AS stem
  FROM (SELECT coalesce((regexp_match(querytree(${Q}), '''([^'']+)'''))[1], '') AS stem) AS first_stem
),
windows AS MATERIALIZED (
  SELECT hits.*, greatest(1, strpos(lower(hits.body), probe.stem) - 240) AS window_start FROM hits, probe
)
SELECT windows.id, windows.title, windows.updated_at, windows.rank,
  ts_headline('english',
    -- Whole words only: a word cut by the window's edges is dropped.
    regexp_replace(
      regexp_replace(substring(windows.body FROM window_start FOR 720),
        CASE WHEN window_start > 1 THEN '^\\S*\\s+' ELSE '^$' END, ''),
      CASE WHEN window_start + 720 <= length(windows.body) THEN '\\s+\\S*$' ELSE '^$' END, ''),
    -- Phrase operators become AND for highlighting: each word of a phrase is marked, and ts_headline
    -- avoids its costly phrase matching.
    regexp_replace(${Q}::text, '<(-|\\d+)>', '&', 'g')::tsquery,
    'StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=30, MinWords=12'
  ) AS snippet
FROM windows
WHERE numnode(${Q}) > 0
ORDER BY windows.rank DESC, windows.updated_at DESC`;

export async function searchDocuments(
  exec: SqlRunner,
  userId: string,
  query: ParsedSearchQuery,
  limit: number,
  folderId: string | null = null,
): Promise<SearchHitRow[]> {
  return (await exec(SEARCH_SQL, [userId, query.phrase, query.prefix, limit, folderId])) as SearchHitRow[];
}

export type LibrarySort = 'updated' | 'title' | 'created' | 'manual';

const LIBRARY_ORDER: Record<LibrarySort, string> = {
  updated: 'updated_at DESC, created_at DESC, id',
  created: 'created_at DESC, id',
  title: 'lower(title), title, id',
  manual: 'position, updated_at DESC, id',
};

/**
 * One page of the user's documents (all, or those directly in `folderId`) with their opening text, and how many.
 * The ones the user pinned come first (in the same order among themselves), so the dashboard's "Pinned" section
 * and the quick switcher read them from the first page; a folder's manual order is kept as arranged.
 */
export async function listLibrary(
  exec: SqlRunner,
  userId: string,
  sort: LibrarySort,
  limit: number,
  offset: number,
  folderId: string | null = null,
): Promise<LibraryRow[]> {
  return (await exec(
    `SELECT d.id, d.title, d.text_preview, d.created_at, d.updated_at, d.is_public, d.folder_id,
       (p.document_id IS NOT NULL) AS pinned, count(*) OVER () AS total
     FROM documents d LEFT JOIN document_pins p ON p.user_id = $1 AND p.document_id = d.id
     WHERE d.user_id = $1 AND d.trashed_at IS NULL AND ($4::uuid IS NULL OR d.folder_id = $4::uuid)
     ORDER BY ${sort === 'manual' ? '' : 'pinned DESC, '}${LIBRARY_ORDER[sort]} LIMIT $2 OFFSET $3`,
    [userId, limit, offset, folderId],
  )) as LibraryRow[];
}
