import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LibrarySort } from '@shared/schemas/search';
import { useAuth } from '@client/features/auth';
import { documentsQueryKey } from '@client/features/documents';
import { listLibrary, searchDocuments } from './api';

/**
 * Keys live under the documents key, so every create, import or delete that invalidates the documents
 * list also refreshes the library and search results.
 */
const libraryQueryKey = (sort: LibrarySort, limit: number, folderId: string | null) =>
  [...documentsQueryKey, 'library', sort, limit, folderId] as const;
const searchQueryKey = (q: string, limit: number, folderId: string | null) =>
  [...documentsQueryKey, 'search', q, limit, folderId] as const;

export function useLibrary(sort: LibrarySort, limit: number, enabled = true, folderId: string | null = null) {
  const { user } = useAuth();
  return useQuery({
    queryKey: libraryQueryKey(sort, limit, folderId),
    queryFn: () => listLibrary(sort, limit, folderId),
    enabled: !!user && enabled,
    placeholderData: keepPreviousData,
  });
}

/** Full-text search; nothing is asked while the query is blank. Previous hits stay while typing. */
export function useSearch(q: string, limit: number, folderId: string | null = null) {
  const { user } = useAuth();
  const trimmed = q.trim();
  return useQuery({
    queryKey: searchQueryKey(trimmed, limit, folderId),
    queryFn: () => searchDocuments(trimmed, limit, folderId),
    enabled: !!user && trimmed.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
