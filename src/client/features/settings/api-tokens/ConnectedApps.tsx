import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PlugZapIcon, UnplugIcon } from 'lucide-react';
import type { ConnectedApp } from '@shared/schemas/oauth';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Skeleton } from '@client/components/ui/skeleton';
import { toast } from '@client/components/ui/use-toast';
import { useAuth } from '@client/features/auth';
import { errorMessage } from '@client/lib/api';
import { timeAgo } from '@client/lib/time-ago';
import { CONNECTED_APPS_PATH, disconnectApp, listConnectedApps } from './api';
import { SCOPE_TEXT } from './scope-text';

/**
 * The apps the user let in by OAuth (an AI agent that signed in through the browser), with Disconnect, which
 * ends the app's access at once: its grant and every token of it are deleted.
 */
export function ConnectedApps() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const apps = useQuery({
    queryKey: [CONNECTED_APPS_PATH, user?.id],
    queryFn: listConnectedApps,
    enabled: Boolean(user?.id),
    refetchOnMount: 'always',
  });
  const disconnect = useMutation({
    mutationFn: (app: ConnectedApp) => disconnectApp(app.id),
    onSuccess: (_nothing, app) => {
      toast({
        title: 'App disconnected',
        description: `“${app.client_name}” can no longer use your account.`,
      });
      void queryClient.invalidateQueries({ queryKey: [CONNECTED_APPS_PATH] });
    },
    onError: (error) =>
      toast({ title: 'Disconnecting failed', description: errorMessage(error), variant: 'destructive' }),
  });

  return (
    <section className="grid gap-2" aria-labelledby="connected-apps-heading">
      <div className="grid gap-1">
        <h3 id="connected-apps-heading" className="text-sm font-medium">
          Connected apps
        </h3>
        <p className="text-xs text-muted-foreground">
          Apps you allowed to sign in to your account, such as AI assistants connected over MCP.
        </p>
      </div>
      {apps.isLoading ? (
        <Skeleton className="h-14 w-full" />
      ) : apps.isError ? (
        <p role="alert" className="text-sm text-destructive">
          Connected apps could not be loaded: {errorMessage(apps.error)}
        </p>
      ) : apps.data?.apps.length ? (
        <ul className="grid divide-y rounded-md border" data-testid="connected-app-list">
          {apps.data.apps.map((app) => (
            <li key={app.id} className="flex items-center gap-3 px-3 py-2.5" data-testid="connected-app-row">
              <PlugZapIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <div className="grid min-w-0 flex-1 gap-1">
                <p className="flex flex-wrap items-center gap-1.5 text-sm font-medium">
                  <span className="truncate">{app.client_name}</span>
                  {app.scopes.map((scope) => (
                    <Badge key={scope} variant="secondary">
                      {SCOPE_TEXT[scope].label}
                    </Badge>
                  ))}
                </p>
                <p className="text-xs text-muted-foreground">
                  Connected {timeAgo(new Date(app.created_at))}
                  {' · '}
                  {app.last_used_at ? `Last used ${timeAgo(new Date(app.last_used_at))}` : 'Never used'}
                </p>
              </div>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                aria-label={`Disconnect ${app.client_name}`}
                disabled={disconnect.isPending && disconnect.variables?.id === app.id}
                onClick={() => disconnect.mutate(app)}
              >
                <UnplugIcon aria-hidden="true" />
                Disconnect
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">No apps are connected.</p>
      )}
    </section>
  );
}
