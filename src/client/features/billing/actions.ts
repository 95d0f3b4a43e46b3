import { useState } from 'react';
import type { BillingPeriod, PlanId } from '@shared/plans';
import type { PlansResponse } from '@shared/schemas/billing';
import { toast } from '@client/components/ui/use-toast';
import { ApiError } from '@client/lib/api';
import { createCheckout, createPortal, type CheckoutEndpoint } from './api';

/** Billing toasts and error texts (docs/product-rules.md#error-catalogue). */
export const BILLING_MESSAGES = {
  freePlanTitle: 'Free Plan',
  freePlanDescription: 'The Gratis plan is free: no payment needed.',
  priceMissing: 'Price information not available.',
  noCheckoutUrl: 'No checkout URL received',
  checkoutErrorTitle: 'Payment Error',
  checkoutError: 'Failed to start checkout process. Please try again.',
  portalErrorTitle: 'Portal Error',
  portalError: 'Failed to open billing portal. Please try again.',
  paymentSuccessTitle: 'Payment Successful',
  paymentSuccess: 'Your subscription has been activated!',
  paymentUpdateFailed: 'Payment processed but failed to update account. Please contact support.',
  billingDisabled: 'Billing is not set up on this server.',
} as const;

/** The server's `message` when it sent one, else the action's own fallback text. */
function serverMessageOr(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    const body = error.body;
    const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
    if (typeof message === 'string' && message) return message;
  }
  return fallback;
}

/** The browser leaves for Stripe; a separate function so tests can observe it. */
export const redirectTo = {
  go(url: string) {
    window.location.assign(url);
  },
};

export function priceIdFor(plans: PlansResponse | undefined, planId: PlanId, period: BillingPeriod) {
  const plan = plans?.plans.find((p) => p.id === planId);
  return plan?.prices[period].priceId ?? null;
}

/**
 * Starts Stripe Checkout for a plan and period, with its toasts: free plan → info, missing price id or
 * failure → error.
 */
export function useCheckout(endpoint: CheckoutEndpoint) {
  const [pendingPlan, setPendingPlan] = useState<PlanId | null>(null);
  async function start(planId: PlanId, priceId: string | null) {
    if (planId === 'gratis') {
      toast({ title: BILLING_MESSAGES.freePlanTitle, description: BILLING_MESSAGES.freePlanDescription });
      return;
    }
    if (!priceId) {
      toast({ title: 'Error', description: BILLING_MESSAGES.priceMissing, variant: 'destructive' });
      return;
    }
    setPendingPlan(planId);
    try {
      const { url } = await createCheckout(priceId, endpoint);
      if (!url) throw new Error(BILLING_MESSAGES.noCheckoutUrl);
      redirectTo.go(url);
    } catch (error) {
      console.error('Failed to create checkout session', error);
      const description =
        error instanceof Error && error.message === BILLING_MESSAGES.noCheckoutUrl
          ? BILLING_MESSAGES.noCheckoutUrl
          : serverMessageOr(error, BILLING_MESSAGES.checkoutError);
      toast({ title: BILLING_MESSAGES.checkoutErrorTitle, description, variant: 'destructive' });
      setPendingPlan(null);
    }
  }
  return { start, pendingPlan };
}

/** Opens Stripe's billing portal ('Portal Error' toast on failure). */
export function usePortal() {
  const [pending, setPending] = useState(false);
  async function open() {
    setPending(true);
    try {
      const { url } = await createPortal();
      if (!url) throw new Error('Failed to create portal session');
      redirectTo.go(url);
    } catch (error) {
      console.error('Failed to create portal session', error);
      toast({
        title: BILLING_MESSAGES.portalErrorTitle,
        description: serverMessageOr(error, BILLING_MESSAGES.portalError),
        variant: 'destructive',
      });
      setPending(false);
    }
  }
  return { open, pending };
}
