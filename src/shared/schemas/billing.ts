import { z } from 'zod';
import type { PlanId } from '../plans';

/** Request and response shapes of the billing API (docs/billing.md), shared by the server and the client. */

export const checkoutRequestSchema = z.object({
  priceId: z.string().trim().min(1, 'Price information not available.').max(255),
});

export const paymentSuccessRequestSchema = z.object({
  sessionId: z.string().trim().min(1, 'sessionId is required').max(255),
});

export interface RedirectResponse {
  url: string;
}

/**
 * What the Subscription tab and the user chip show of a plan. Dates are ISO strings; `status` is Stripe's, or
 * 'active'/'inactive' without one.
 */
export interface SubscriptionStatus {
  isActive: boolean;
  planName: PlanId;
  status: string;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
}

/**
 * What the client shows when the status cannot be loaded (inactive Gratis, so a failed poll never shows a
 * plan the writer may not have).
 */
export const FALLBACK_SUBSCRIPTION_STATUS: SubscriptionStatus = {
  isActive: false,
  planName: 'gratis',
  status: 'inactive',
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
};

interface PlanPrice {
  /** USD for the whole period. */
  amount: number;
  /** Stripe price id, null when the operator has not configured it. */
  priceId: string | null;
}

/**
 * A plan as the pricing cards show it (id, name, price, period, priceId, productId, features, popular) plus
 * both billing periods.
 */
interface PublicPlan {
  id: PlanId;
  name: string;
  /** Monthly price in USD. */
  price: number;
  period: 'month';
  /** Monthly Stripe price id. */
  priceId: string | null;
  productId: string | null;
  features: string[];
  popular: boolean;
  prices: { monthly: PlanPrice; annual: PlanPrice };
  limits: { documents: number | null; aiTokensPerMonth: number };
}

export interface PlansResponse {
  plans: PublicPlan[];
  /** False when the server has no Stripe key: pricing buttons then say billing is not set up. */
  billingEnabled: boolean;
  /** Whether document and AI limits are enforced on this server. */
  limitsEnforced: boolean;
}
