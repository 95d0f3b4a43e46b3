import { XCircle } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';

/** /subscription-cancel: Stripe sends the buyer here when they leave Checkout. */
export function SubscriptionCancelPage() {
  return (
    <main className="grid min-h-dvh place-items-center bg-muted/30 px-4">
      <div className="w-full max-w-md rounded-2xl border bg-card p-8 text-center shadow-sm">
        <XCircle className="mx-auto size-14 text-muted-foreground" aria-hidden="true" />
        <h1 className="mt-4 text-2xl font-bold">Payment Cancelled</h1>
        <p className="mt-2 text-muted-foreground">
          No worries! Your payment was cancelled and no charges were made to your account.
        </p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Button asChild variant="outline">
            <Link href="/">Back to Dashboard</Link>
          </Button>
          <Button asChild>
            {/* A full navigation so the browser scrolls to the pricing anchor. */}
            <a href="/#pricing">View Plans Again</a>
          </Button>
        </div>
      </div>
    </main>
  );
}
