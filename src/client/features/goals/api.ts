import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DocumentGoal } from '@shared/schemas/goals';
import { apiRequest } from '@client/lib/api';

/**
 * Fetchers and query hooks for /api/documents/:id/goal and /api/folders/:id/goal. Type-only schema imports keep
 * zod out of the bundle.
 */

/** What a goal is set on. */
export type GoalSubject = { kind: 'documents' | 'folders'; id: string };

const goalPath = ({ kind, id }: GoalSubject) => `/api/${kind}/${encodeURIComponent(id)}/goal`;
const goalKey = ({ kind, id }: GoalSubject) => [kind, id, 'goal'] as const;

/** The writer's IANA zone: days, today's words and the streak are counted in it. */
function writerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function useGoal(subject: GoalSubject | null, options: { refetchInterval?: number | false } = {}) {
  return useQuery({
    queryKey: goalKey(subject ?? { kind: 'documents', id: '' }),
    queryFn: () =>
      apiRequest<DocumentGoal>('GET', `${goalPath(subject!)}?zone=${encodeURIComponent(writerTimeZone())}`),
    enabled: subject !== null,
    refetchInterval: options.refetchInterval ?? false,
  });
}

export function useSetGoal(subject: GoalSubject) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (goal: { target_words: number; deadline: string | null }) =>
      apiRequest<DocumentGoal>('PUT', goalPath(subject), { ...goal, zone: writerTimeZone() }),
    onSuccess: (goal) => queryClient.setQueryData(goalKey(subject), goal),
  });
}

export function useClearGoal(subject: GoalSubject) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<null>('DELETE', goalPath(subject)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: goalKey(subject) }),
  });
}
