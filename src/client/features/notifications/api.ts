import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@client/lib/api';
import { NOTIFICATIONS_POLL_MS, type NotificationPage, type UnreadCount } from '@shared/notifications';

/** The signed-in person's notifications (docs/notifications.md). */

const unreadKey = ['notifications', 'unread'] as const;
const listKey = ['notifications', 'list'] as const;

/** The unread count, asked every NOTIFICATIONS_POLL_MS and when the window regains focus. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: unreadKey,
    enabled,
    queryFn: () => apiRequest<UnreadCount>('GET', '/api/notifications/unread-count'),
    refetchInterval: NOTIFICATIONS_POLL_MS,
    refetchOnWindowFocus: true,
  });
}

/** The newest notifications, while the list is open. */
export function useNotifications(enabled: boolean) {
  return useQuery({
    queryKey: listKey,
    queryFn: () => apiRequest<NotificationPage>('GET', '/api/notifications'),
    enabled,
    refetchInterval: enabled ? NOTIFICATIONS_POLL_MS : false,
  });
}

/** Marks some notifications read, or all; the count comes back with the answer. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { ids: string[] } | { all: true }) =>
      apiRequest<UnreadCount>('POST', '/api/notifications/read', input),
    onSuccess: (answer) => queryClient.setQueryData(unreadKey, answer),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['notifications'] }),
  });
}
