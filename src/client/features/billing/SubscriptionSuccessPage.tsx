import { CheckCircle2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useSearch } from 'wouter';
import { planById } from '@shared/plans';
import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/use-toast';
import { useAuth } from '@client/features/auth';
import { BILLING_MESSAGES } from './actions';
import { confirmPayment } from './api';
import { useRefreshSubscription, useSubscriptionStatus } from './queries';

/**
 * /subscription-success. Stripe sends the buyer here with ?session_id=…; the page asks the
 * server to confirm that session (the server fetches it from Stripe and checks it is the caller's and
 * paid), then refreshes the subscription. The verified webhook does the same on its own, so a buyer who
 * closes the tab early still gets the plan.
 */
export function SubscriptionSuccessPage() {
  const search = useSearch();
  const sessionId = new URLSearchParams(search).get('session_id');
  const { user, loading } = useAuth();
  const refresh = useRefreshSubscription();
  const { status } = useSubscriptionStatus();
  const confirmed = useRef<string | null>(null);

  useEffect(() => {
    if (loading || !user || !sessionId || confirmed.current === sessionId) return;
    confirmed.current = sessionId;
    confirmPayment(sessionId)
      .then(async (next) => {
        await refresh(next);
        toast({ title: BILLING_MESSAGES.paymentSuccessTitle, description: BILLING_MESSAGES.paymentSuccess });
      })
      .catch((error: unknown) => {
        console.error('Failed to handle payment success', error);
        void refresh();
        toast({ title: 'Error', description: BILLING_MESSAGES.paymentUpdateFailed, variant: 'destructive' });
      });
  }, [loading, user, sessionId, refresh]);

  return (
    <main className="grid min-h-dvh place-items-center bg-muted/30 px-4">
      <div className="w-full max-w-md rounded-2xl border bg-card p-8 text-center shadow-sm">
        <CheckCircle2 className="mx-auto size-14 text-success" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold">Payment Successful!</h1>
        <p className="mt-2 text-muted-foreground">
          Thank you for subscribing... Your premium features are now active.
        </p>
        {user && status.isActive && (
          <p className="mt-4 text-sm" data-testid="success-plan">
            Your plan: <strong>{planById(status.planName).name}</strong>
          </p>
        )}
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Button asChild variant="outline">
            <Link href="/">Go to Dashboard</Link>
          </Button>
          <Button asChild>
            <Link href="/editor">Start Writing</Link>
          </Button>
        </div>
      </div>
    </main>
  );
}
