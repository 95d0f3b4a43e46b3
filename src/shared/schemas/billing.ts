import { z } from 'zod';
import { PLAN_IDS } from '../plans';

/** Request and response shapes of the billing API (SPEC §7), shared by the server and the client. */

export const checkoutRequestSchema = z.object({
  priceId: z.string().trim().min(1, 'Price information not available.').max(255),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

export const paymentSuccessRequestSchema = z.object({
  sessionId: z.string().trim().min(1, 'sessionId is required').max(255),
});
export type PaymentSuccessRequest = z.infer<typeof paymentSuccessRequestSchema>;

export const redirectResponseSchema = z.object({ url: z.string() });
export type RedirectResponse = z.infer<typeof redirectResponseSchema>;

/** SPEC §3 "Subscription status". Dates are ISO strings; `status` is Stripe's, or 'active'/'inactive' without one. */
export const subscriptionStatusSchema = z.object({
  isActive: z.boolean(),
  planName: z.enum(PLAN_IDS),
  status: z.string(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/** What the client shows when the status cannot be loaded (SPEC §7: falls back to inactive gratis). */
export const FALLBACK_SUBSCRIPTION_STATUS: SubscriptionStatus = {
  isActive: false,
  planName: 'gratis',
  status: 'inactive',
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
};

const planPriceSchema = z.object({
  /** USD for the whole period. */
  amount: z.number(),
  /** Stripe price id, null when the operator has not configured it. */
  priceId: z.string().nullable(),
});

/** SPEC §3 "Plan" (id, name, price, period, priceId, productId, features, popular) plus both billing periods. */
export const publicPlanSchema = z.object({
  id: z.enum(PLAN_IDS),
  name: z.string(),
  /** Monthly price in USD. */
  price: z.number(),
  period: z.literal('month'),
  /** Monthly Stripe price id. */
  priceId: z.string().nullable(),
  productId: z.string().nullable(),
  features: z.array(z.string()),
  popular: z.boolean(),
  prices: z.object({ monthly: planPriceSchema, annual: planPriceSchema }),
  limits: z.object({ documents: z.number().nullable(), aiTokensPerMonth: z.number() }),
});
export type PublicPlan = z.infer<typeof publicPlanSchema>;

export const plansResponseSchema = z.object({
  plans: z.array(publicPlanSchema),
  /** False when the server has no Stripe key: pricing buttons then say billing is not set up. */
  billingEnabled: z.boolean(),
  /** Whether document and AI limits are enforced on this server. */
  limitsEnforced: z.boolean(),
});
export type PlansResponse = z.infer<typeof plansResponseSchema>;
