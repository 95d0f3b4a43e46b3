import { ArrowRight } from 'lucide-react';
import { lazy, Suspense } from 'react';
import type { BillingPeriod, PlanDefinition } from '@shared/plans';
import { Button } from '@client/components/ui/button';
import { useAuth, useAuthDialog } from '@client/features/auth';

export interface PlanButtonProps {
  plan: PlanDefinition;
  period: BillingPeriod;
}

/** The label a plan card's button shows. */
export function planButtonLabel(plan: PlanDefinition): string {
  return plan.monthlyPrice === 0 ? 'Start for free' : `Choose ${plan.name}`;
}

/** Shown on paid plans when the server has no Stripe key (GET /api/plans → billingEnabled false). */
export const BILLING_NOT_SET_UP_LABEL = 'Billing not set up';

// Checkout code (billing client, zod schemas, GET /api/plans) loads only for signed-in users, keeping
// the landing page's initial JavaScript small (bench:web).
const CheckoutPlanButton = lazy(async () => {
  const [{ CheckoutPlanButton }, { withQueries }] = await Promise.all([
    import('./CheckoutPlanButton'),
    import('@client/lib/with-queries'),
  ]);
  return { default: withQueries(CheckoutPlanButton) };
});

/**
 * The one place that decides what a pricing card's button does. Visitors are sent to sign-up;
 * signed-in users start Stripe Checkout (CheckoutPlanButton).
 */
export function PlanButton({ plan, period }: PlanButtonProps) {
  const { openAuthDialog } = useAuthDialog();
  const { user } = useAuth();
  const visitorButton = (disabled: boolean) => (
    <Button
      size="lg"
      variant={plan.popular ? 'default' : 'outline'}
      className="w-full"
      aria-label={`${planButtonLabel(plan)} plan`}
      disabled={disabled}
      onClick={() => openAuthDialog('signup')}
    >
      {planButtonLabel(plan)}
      <ArrowRight aria-hidden="true" />
    </Button>
  );
  if (!user) return visitorButton(false);
  return (
    <Suspense fallback={visitorButton(true)}>
      <CheckoutPlanButton plan={plan} period={period} />
    </Suspense>
  );
}
