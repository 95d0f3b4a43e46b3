import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { ApiError, apiRequest } from './api';
import { registerQueryCache } from './query-cache';

export type UnauthorizedBehavior = 'throw' | 'returnNull';

/** The default data fetch: GET the first element of the query key; a 401 throws or returns null. */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey }) => {
    const path = queryKey[0];
    if (typeof path !== 'string') throw new Error('The default query function needs a path as queryKey[0]');
    try {
      return await apiRequest<T>('GET', path);
    } catch (error) {
      if (on401 === 'returnNull' && error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  };
}

/**
 * Defaults: no refetch interval, no refetch on focus, infinite staleness, no retry. Live updates come over
 * the collaboration socket and mutations refresh what they change, so polling would only add load.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
registerQueryCache(() => queryClient.clear());
