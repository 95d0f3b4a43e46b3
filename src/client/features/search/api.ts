import type { LibraryPage, LibrarySort, SearchResult } from '@shared/schemas/search';
import { apiRequest } from '@client/lib/api';

const SEARCH_PATH = '/api/search';
const LIBRARY_PATH = '/api/search/documents';

const inFolder = (folderId: string | null) => (folderId ? `&folderId=${encodeURIComponent(folderId)}` : '');

/** Search; with a folder, only in it and its sub-folders. */
export function searchDocuments(q: string, limit: number, folderId: string | null = null) {
  return apiRequest<SearchResult[]>(
    'GET',
    `${SEARCH_PATH}?q=${encodeURIComponent(q)}&limit=${limit}${inFolder(folderId)}`,
  );
}

/** The dashboard's list; with a folder, the documents directly in it. */
export function listLibrary(sort: LibrarySort, limit: number, folderId: string | null = null) {
  return apiRequest<LibraryPage>('GET', `${LIBRARY_PATH}?sort=${sort}&limit=${limit}${inFolder(folderId)}`);
}
