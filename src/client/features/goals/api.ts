import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentGoal } from '@shared/schemas/goals';
import { apiRequest } from '@client/lib/api';

/** Fetchers and query hooks for /api/documents/:id/goal. Type-only schema imports keep zod out of the bundle. */

const goalPath = (documentId: string) => `/api/documents/${encodeURIComponent(documentId)}/goal`;

/** The writer's IANA zone: days, today's words and the streak are counted in it. */
function writerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const goalKey = (documentId: string) => ['documents', documentId, 'goal'] as const;

export function useGoal(documentId: string, options: { refetchInterval?: number | false } = {}) {
  return useQuery({
    queryKey: goalKey(documentId),
    queryFn: () =>
      apiRequest<DocumentGoal>('GET', `${goalPath(documentId)}?zone=${encodeURIComponent(writerTimeZone())}`),
    refetchInterval: options.refetchInterval ?? false,
  });
}

export function useSetGoal(documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (goal: { target_words: number; deadline: string | null }) =>
      apiRequest<DocumentGoal>('PUT', goalPath(documentId), { ...goal, zone: writerTimeZone() }),
    onSuccess: (goal) => queryClient.setQueryData(goalKey(documentId), goal),
  });
}

export function useClearGoal(documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<null>('DELETE', goalPath(documentId)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: goalKey(documentId) }),
  });
}
