import type { LibraryPage, LibrarySort, SearchResult } from '@shared/schemas/search';
import { apiRequest } from '@client/lib/api';

const SEARCH_PATH = '/api/search';
const LIBRARY_PATH = '/api/search/documents';

export function searchDocuments(q: string, limit: number) {
  return apiRequest<SearchResult[]>('GET', `${SEARCH_PATH}?q=${encodeURIComponent(q)}&limit=${limit}`);
}

export function listLibrary(sort: LibrarySort, limit: number) {
  return apiRequest<LibraryPage>('GET', `${LIBRARY_PATH}?sort=${sort}&limit=${limit}`);
}
