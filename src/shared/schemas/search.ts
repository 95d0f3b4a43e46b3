import { z } from 'zod';
import { folderIdSchema } from './folders';
import {
  DASHBOARD_PAGE_SIZE,
  LIBRARY_MAX_LIMIT,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  SEARCH_MAX_QUERY_LENGTH,
} from '../constants';

/** `GET /api/search?q=…&limit=…`: a non-blank query of at most SEARCH_MAX_QUERY_LENGTH characters. */
export const searchQuerySchema = z.object({
  q: z
    .string({ message: 'Enter something to search for' })
    .trim()
    .min(1, 'Enter something to search for')
    .max(SEARCH_MAX_QUERY_LENGTH, `Search for at most ${SEARCH_MAX_QUERY_LENGTH} characters`),
  limit: z.coerce.number().int().min(1).max(SEARCH_MAX_LIMIT).default(SEARCH_DEFAULT_LIMIT),
  /** Only documents in this folder and its sub-folders. */
  folderId: folderIdSchema.optional(),
});

/**
 * One hit. `snippet` is HTML-escaped text in which the matched words are wrapped in `<mark>…</mark>`, so
 * a client may render it as HTML; nothing else in it is markup.
 */
export interface SearchResult {
  id: string;
  title: string;
  snippet: string;
  updated_at: string;
  rank: number;
}

/** `manual`: the order the writer gave the documents in their folder (then the most recently updated). */
export const LIBRARY_SORTS = ['updated', 'title', 'created', 'manual'] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];

/**
 * `GET /api/search/documents?sort=…&limit=…&offset=…&folderId=…`: the dashboard's paged, sorted list; with
 * `folderId`, only the documents directly in that folder.
 */
export const libraryQuerySchema = z.object({
  sort: z.enum(LIBRARY_SORTS).default('updated'),
  folderId: folderIdSchema.optional(),
  limit: z.coerce.number().int().min(1).max(LIBRARY_MAX_LIMIT).default(DASHBOARD_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
});

interface LibraryDocument {
  id: string;
  title: string;
  /** The opening text of the document (at most a few lines), plain text. */
  preview: string;
  created_at: string;
  updated_at: string;
  is_public: boolean;
  /** The folder it sits in; null at the top level. */
  folder_id?: string | null;
  /** Pinned by the signed-in user; pinned documents come first. */
  pinned: boolean;
}

export interface LibraryPage {
  /** How many documents the user has in all. */
  total: number;
  documents: LibraryDocument[];
}
