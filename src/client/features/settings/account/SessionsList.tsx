import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LaptopIcon, Loader2Icon, LogOutIcon } from 'lucide-react';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { toast } from '@client/components/ui/use-toast';
import {
  useAuth,
  SESSIONS_PATH,
  listSessionsRequest,
  revokeSessionRequest,
  signOutRequest,
  type SessionSummary,
} from '@client/features/auth';
import { errorMessage } from '@client/lib/api';
import { timeAgo } from '@client/lib/time-ago';

/**
 * Where the account is signed in: one row per session with its device and when it was last used, "This
 * device" on this browser's row, "Sign out" for any other, and "Sign out everywhere else".
 */
export function SessionsList() {
  const userId = useAuth().user?.id;
  const queryClient = useQueryClient();
  const queryKey = [SESSIONS_PATH, userId];
  const sessions = useQuery({ queryKey, queryFn: listSessionsRequest, enabled: Boolean(userId) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: [SESSIONS_PATH] });
  const onError = (error: unknown) =>
    toast({ title: 'Sign out failed', description: errorMessage(error), variant: 'destructive' });

  const revokeOne = useMutation({
    mutationFn: (session: SessionSummary) => revokeSessionRequest(session.id),
    onSuccess: (_nothing, session) => {
      toast({ title: 'Signed out', description: `${session.device} is signed out.` });
      void refresh();
    },
    onError,
  });
  const revokeOthers = useMutation({
    mutationFn: () => signOutRequest('others'),
    onSuccess: () => {
      toast({ title: 'Signed out everywhere else', description: 'Only this device is still signed in.' });
      void refresh();
    },
    onError,
  });

  const others = sessions.data?.filter((session) => !session.current) ?? [];

  return (
    <section className="grid gap-3" aria-labelledby="sessions-heading">
      <div className="flex flex-col items-start gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid gap-0.5">
          <h3 id="sessions-heading" className="text-sm font-medium">
            Where you're signed in
          </h3>
          <p className="text-xs text-muted-foreground">Sign out of any device you don't recognise.</p>
        </div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={others.length === 0 || revokeOthers.isPending}
          onClick={() => revokeOthers.mutate()}
        >
          {revokeOthers.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
          Sign out everywhere else
        </Button>
      </div>
      {sessions.isLoading ? (
        <div className="grid gap-2" aria-busy="true">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      ) : sessions.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Sessions could not be loaded: {errorMessage(sessions.error)}
        </p>
      ) : (
        <ul className="grid divide-y rounded-md border" data-testid="sessions-list">
          {sessions.data?.map((session) => (
            <li key={session.id} className="flex items-center gap-3 px-3 py-2.5" data-testid="session-row">
              <LaptopIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <div className="grid min-w-0 flex-1 gap-0.5">
                <p className="flex items-center gap-2 truncate text-sm font-medium">
                  {session.device}
                  {session.current ? <Badge variant="secondary">This device</Badge> : null}
                </p>
                <p className="text-xs text-muted-foreground">
                  {session.current ? 'Active now' : `Last active ${timeAgo(new Date(session.last_seen_at))}`}
                  {' · signed in '}
                  {timeAgo(new Date(session.created_at))}
                </p>
              </div>
              {session.current ? null : (
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  aria-label={`Sign out ${session.device}`}
                  disabled={revokeOne.isPending && revokeOne.variables?.id === session.id}
                  onClick={() => revokeOne.mutate(session)}
                >
                  <LogOutIcon aria-hidden="true" />
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
