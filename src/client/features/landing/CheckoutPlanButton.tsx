import { ArrowRight, Loader2 } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { priceIdFor, useCheckout, usePlans } from '@client/features/billing';
import { BILLING_NOT_SET_UP_LABEL, planButtonLabel, type PlanButtonProps } from './PlanButton';

/**
 * A pricing card's button for a signed-in user: starts Stripe Checkout for the plan and billing period
 * (the free plan only shows an info toast, a missing price id an error). Loaded lazily by
 * PlanButton, so visitors never download the billing client or the schemas it validates with.
 */
export function CheckoutPlanButton({ plan, period }: PlanButtonProps) {
  const { data: plans } = usePlans();
  const checkout = useCheckout('create-checkout-session');
  const paid = plan.monthlyPrice > 0;
  // Signed-in users learn that this server sells nothing.
  const billingOff = paid && plans !== undefined && !plans.billingEnabled;
  const pending = checkout.pendingPlan === plan.id;
  const label = billingOff ? BILLING_NOT_SET_UP_LABEL : planButtonLabel(plan);
  return (
    <Button
      size="lg"
      variant={plan.popular ? 'default' : 'outline'}
      className="w-full"
      aria-label={`${label} plan`}
      // Until the price ids have loaded a click could only say "Price information not available."
      disabled={billingOff || pending || (paid && plans === undefined)}
      title={billingOff ? 'This server does not sell plans; an administrator assigns them.' : undefined}
      onClick={() => void checkout.start(plan.id, priceIdFor(plans, plan.id, period))}
    >
      {label}
      {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <ArrowRight aria-hidden="true" />}
    </Button>
  );
}
