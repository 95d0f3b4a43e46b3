import escapeHtml from 'escape-html';
import type { SqlRunner } from '../db/migrate';
import type { LibraryPage, LibrarySort, SearchResult } from '../../shared/schemas/search';
import { parseSearchQuery } from './search-query';
import { listLibrary, MATCH_END, MATCH_START, searchDocuments } from '../documents';

/** Finding documents: full-text search and the dashboard's sorted list. Owner-only by construction. */

const MATCHED = new RegExp(`${MATCH_START}([^${MATCH_START}${MATCH_END}]*)${MATCH_END}`, 'g');
const STRAY_MARKERS = new RegExp(`[${MATCH_START}${MATCH_END}]`, 'g');

/** ts_headline's text with markers → HTML-escaped text where only the matches are markup (`<mark>`). */
export function snippetHtml(headline: string): string {
  return escapeHtml(headline)
    .replace(MATCHED, '<mark>$1</mark>')
    .replace(STRAY_MARKERS, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const isoOf = (value: Date | string) => new Date(value).toISOString();

export async function search(
  exec: SqlRunner,
  userId: string,
  text: string,
  limit: number,
  folderId?: string,
): Promise<SearchResult[]> {
  const rows = await searchDocuments(exec, userId, parseSearchQuery(text), limit, folderId ?? null);
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    snippet: snippetHtml(row.snippet ?? ''),
    updated_at: isoOf(row.updated_at),
    rank: Number(row.rank),
  }));
}

export async function library(
  exec: SqlRunner,
  userId: string,
  options: { sort: LibrarySort; limit: number; offset: number; folderId?: string | undefined },
): Promise<LibraryPage> {
  const folderId = options.folderId ?? null;
  let rows = await listLibrary(exec, userId, options.sort, options.limit, options.offset, folderId);
  let total = rows.length > 0 ? Number(rows[0]!.total) : 0;
  if (rows.length === 0 && options.offset > 0) {
    // Past the end: the window count has no row to ride on.
    const [first] = await listLibrary(exec, userId, options.sort, 1, 0, folderId);
    total = first ? Number(first.total) : 0;
    rows = [];
  }
  return {
    total,
    documents: rows.map((row) => ({
      id: row.id,
      title: row.title,
      preview: row.text_preview,
      created_at: isoOf(row.created_at),
      updated_at: isoOf(row.updated_at),
      is_public: row.is_public,
      folder_id: row.folder_id,
      pinned: row.pinned,
    })),
  };
}
