import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, CircleAlert, CircleCheck, Loader2Icon, RefreshCwIcon } from 'lucide-react';
import { Link } from 'wouter';
import { HEALTH_PATH } from '@shared/constants';
import { Button } from '@client/components/ui/button';

interface Health {
  status: 'ok' | 'draining' | 'error';
  version?: string;
}

/** The health check's answer; a 503 still carries the status to show, and no answer at all is an error too. */
async function readHealth(): Promise<Health> {
  try {
    const response = await fetch(HEALTH_PATH, { cache: 'no-store' });
    return (await response.json()) as Health;
  } catch {
    return { status: 'error' };
  }
}

const MESSAGES: Record<Health['status'], string> = {
  ok: 'All systems operational',
  draining: 'Restarting: the service is finishing its current requests',
  error: 'The service is not answering as it should',
};

/**
 * The footer's Status link: the service's own health check (GET /api/health, the one a load balancer reads),
 * shown as a sentence, with when it was checked and a way to check again.
 */
export function StatusPage() {
  const health = useQuery({ queryKey: [HEALTH_PATH, 'status-page'], queryFn: readHealth, gcTime: 0 });
  const checking = health.isFetching;
  const status = health.data?.status;

  return (
    <main className="grid min-h-screen place-items-center bg-background px-4 text-foreground">
      <div className="w-full max-w-md text-center">
        <h1 className="text-3xl font-bold tracking-tight">Service status</h1>
        <p
          className="mt-6 flex items-center justify-center gap-2 text-lg font-medium"
          role="status"
          data-testid="service-status"
        >
          {checking || !status ? (
            <Loader2Icon className="size-5 animate-spin text-muted-foreground" aria-hidden="true" />
          ) : status === 'ok' ? (
            <CircleCheck className="size-5 text-emerald-600 dark:text-emerald-400" aria-hidden="true" />
          ) : (
            <CircleAlert className="size-5 text-destructive" aria-hidden="true" />
          )}
          {checking || !status ? 'Checking…' : (MESSAGES[status] ?? MESSAGES.error)}
        </p>
        {health.data && !checking ? (
          <p className="mt-2 text-sm text-muted-foreground">
            Checked at {new Date(health.dataUpdatedAt).toLocaleTimeString()}
            {health.data.version ? ` · version ${health.data.version}` : ''}
          </p>
        ) : null}
        <div className="mt-8 flex flex-wrap justify-center gap-2">
          <Button variant="outline" onClick={() => void health.refetch()} disabled={checking}>
            <RefreshCwIcon aria-hidden="true" />
            Check again
          </Button>
          <Button asChild>
            <Link href="/">
              <ArrowLeft aria-hidden="true" />
              Back to home
            </Link>
          </Button>
        </div>
      </div>
    </main>
  );
}
