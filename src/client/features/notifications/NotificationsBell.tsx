import { Bell } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '@client/components/ui/button';
import { useAuth } from '@client/features/auth';
import { Popover, PopoverContent, PopoverTrigger } from '@client/components/ui/popover';
import { errorMessage } from '@client/lib/api';
import { timeAgo } from '@client/lib/time-ago';
import { cn } from '@client/lib/utils';
import type { AppNotification } from '@shared/notifications';
import { useMarkRead, useNotifications, useUnreadCount } from './api';

const ACTIONS: Record<AppNotification['kind'], string> = {
  mention: 'mentioned you in',
  reply: 'replied in',
  comment: 'commented on',
};

/** Where a notification leads: the document, with its thread open. */
const notificationPath = (notification: AppNotification) =>
  `/editor/${notification.documentId}?thread=${notification.threadId}`;

/**
 * The header's bell: the number of unread notifications, and a list of the newest. Choosing one marks it read
 * and opens the document at its thread.
 */
export function NotificationsBell() {
  const { user } = useAuth();
  const [open, setOpen] = useState(false);
  const unread = useUnreadCount(Boolean(user)).data?.unreadCount ?? 0;
  const list = useNotifications(open);
  const markRead = useMarkRead();
  const [, navigate] = useLocation();
  const label = unread > 0 ? `Notifications (${unread} unread)` : 'Notifications';

  const choose = (notification: AppNotification) => {
    if (!notification.readAt) markRead.mutate({ ids: [notification.id] });
    setOpen(false);
    navigate(notificationPath(notification));
  };

  const notifications = list.data?.notifications ?? [];
  // Signed out (or still finding out): nothing to ask for.
  if (!user) return null;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label={label}
          title={label}
          data-testid="notifications-bell"
          className="relative"
        >
          <Bell />
          {unread > 0 && (
            <span
              aria-hidden="true"
              data-testid="notifications-count"
              className="absolute -top-0.5 -right-0.5 min-w-4 rounded-full bg-amber-500 px-1 text-[10px] leading-4 font-semibold text-white tabular-nums"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          )}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-80 p-0" aria-label="Notifications">
        <div className="flex items-center justify-between gap-2 border-b px-3 py-2">
          <h2 className="text-sm font-semibold">Notifications</h2>
          <Button
            variant="ghost"
            size="sm"
            className="h-7 px-2 text-xs"
            disabled={unread === 0 || markRead.isPending}
            onClick={() => markRead.mutate({ all: true })}
          >
            Mark all as read
          </Button>
        </div>
        {list.isPending ? (
          <p className="px-3 py-4 text-sm text-muted-foreground">Loading…</p>
        ) : list.isError ? (
          <p className="px-3 py-4 text-sm text-destructive">{errorMessage(list.error)}</p>
        ) : notifications.length === 0 ? (
          <p className="px-3 py-4 text-sm text-muted-foreground" data-testid="notifications-empty">
            No notifications yet.
          </p>
        ) : (
          <ul className="max-h-96 overflow-y-auto py-1" data-testid="notifications-list">
            {notifications.map((notification) => (
              <li key={notification.id}>
                <button
                  type="button"
                  onClick={() => choose(notification)}
                  data-testid="notification"
                  data-unread={notification.readAt ? undefined : true}
                  className={cn(
                    'flex w-full gap-2 px-3 py-2 text-left text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none',
                  )}
                >
                  <span
                    aria-hidden="true"
                    className={cn(
                      'mt-1.5 size-2 shrink-0 rounded-full',
                      notification.readAt ? 'bg-transparent' : 'bg-amber-500',
                    )}
                  />
                  <span className="min-w-0 flex-1">
                    <span className="block">
                      <span className="font-medium">{notification.actorName}</span>{' '}
                      {ACTIONS[notification.kind]}{' '}
                      <span className="font-medium">“{notification.documentTitle}”</span>
                      {!notification.readAt && <span className="sr-only"> (unread)</span>}
                    </span>
                    <span className="line-clamp-2 block text-xs text-muted-foreground">
                      {notification.excerpt}
                    </span>
                    <time className="block text-xs text-muted-foreground" dateTime={notification.createdAt}>
                      {timeAgo(new Date(notification.createdAt))}
                    </time>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </PopoverContent>
    </Popover>
  );
}
