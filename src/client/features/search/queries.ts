import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { LibrarySort } from '@shared/schemas/search';
import { useAuth } from '@client/features/auth';
import { documentsQueryKey } from '@client/features/documents';
import { listLibrary, searchDocuments } from './api';

/**
 * Keys live under the documents key, so every create, import or delete that invalidates the documents
 * list also refreshes the library and search results.
 */
const libraryQueryKey = (sort: LibrarySort, limit: number) =>
  [...documentsQueryKey, 'library', sort, limit] as const;
const searchQueryKey = (q: string, limit: number) => [...documentsQueryKey, 'search', q, limit] as const;

export function useLibrary(sort: LibrarySort, limit: number, enabled = true) {
  const { user } = useAuth();
  return useQuery({
    queryKey: libraryQueryKey(sort, limit),
    queryFn: () => listLibrary(sort, limit),
    enabled: !!user && enabled,
    placeholderData: keepPreviousData,
  });
}

/** Full-text search; nothing is asked while the query is blank. Previous hits stay while typing. */
export function useSearch(q: string, limit: number) {
  const { user } = useAuth();
  const trimmed = q.trim();
  return useQuery({
    queryKey: searchQueryKey(trimmed, limit),
    queryFn: () => searchDocuments(trimmed, limit),
    enabled: !!user && trimmed.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
