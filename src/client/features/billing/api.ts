import type { PlansResponse, RedirectResponse, SubscriptionStatus } from '@shared/schemas/billing';
import { apiRequest } from '@client/lib/api';
import { getSession } from '@client/lib/session-store';

/** Plain fetchers of the billing API (docs/billing.md); hooks live in queries.ts. */

export const PLANS_PATH = '/api/plans';
export const SUBSCRIPTION_STATUS_PATH = '/api/stripe/subscription-status';

/** The dashboard's and the pricing section's names for the same server action. */
export type CheckoutEndpoint = 'create-checkout' | 'create-checkout-session';

/** Billing calls need a session and throw 'User not authenticated' without one. */
function requireSession(): void {
  if (!getSession()) throw new Error('User not authenticated');
}

export function fetchPlans(): Promise<PlansResponse> {
  return apiRequest<PlansResponse>('GET', PLANS_PATH, undefined, { anonymous: true });
}

export function fetchSubscriptionStatus(): Promise<SubscriptionStatus> {
  requireSession();
  return apiRequest<SubscriptionStatus>('GET', SUBSCRIPTION_STATUS_PATH);
}

export function createCheckout(priceId: string, endpoint: CheckoutEndpoint = 'create-checkout') {
  requireSession();
  return apiRequest<RedirectResponse>('POST', `/api/stripe/${endpoint}`, { priceId });
}

export function createPortal() {
  requireSession();
  return apiRequest<RedirectResponse>('POST', '/api/stripe/create-portal');
}

export function confirmPayment(sessionId: string): Promise<SubscriptionStatus> {
  requireSession();
  return apiRequest<SubscriptionStatus>('POST', '/api/stripe/payment-success', { sessionId });
}
