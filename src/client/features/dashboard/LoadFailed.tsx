import { RefreshCwIcon } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { errorMessage } from '@client/lib/api';

/** A list that could not be loaded: what failed, the server's reason, and a way to try again. */
export function LoadFailed({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <div role="alert" className="flex flex-col items-center rounded-xl border bg-card px-6 py-14 text-center">
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-1 max-w-md text-sm text-muted-foreground">{errorMessage(error)}</p>
      <Button variant="outline" className="mt-5" onClick={onRetry}>
        <RefreshCwIcon aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}
