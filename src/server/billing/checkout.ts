import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  createCheckoutSession,
  createCustomer,
  createPortalSession,
  isMissingResource,
  type StripeClient,
} from './stripe';
import { billingAccounts, subscriptions } from '../db/schema';
import { AppError, badRequest, conflict } from '../errors';
import { priceCatalog } from './catalog';
import { type BillingDeps, type Executor, LIVE_STATUSES, callStripe, requireStripe } from './service';

/** Stripe customers of our users, Checkout sessions and the billing portal. */

export async function storedCustomerId(db: Executor, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: billingAccounts.stripeCustomerId })
    .from(billingAccounts)
    .where(eq(billingAccounts.userId, userId))
    .limit(1);
  return row?.id ?? null;
}

/** Links a Stripe customer to a user unless the user already has one; returns the customer kept. */
export async function linkCustomer(db: Executor, userId: string, customerId: string): Promise<string> {
  const [row] = await db
    .insert(billingAccounts)
    .values({ userId, stripeCustomerId: customerId })
    .onConflictDoUpdate({
      target: billingAccounts.userId,
      set: {
        stripeCustomerId: sql`coalesce(${billingAccounts.stripeCustomerId}, excluded.stripe_customer_id)`,
        updatedAt: new Date(),
      },
    })
    .returning({ id: billingAccounts.stripeCustomerId });
  return row?.id ?? customerId;
}

/** The user's Stripe customer, created on first checkout and reused afterwards. */
async function ensureCustomer(
  deps: BillingDeps,
  stripe: StripeClient,
  user: { userId: string; email: string },
  forceNew = false,
): Promise<string> {
  if (!forceNew) {
    const existing = await storedCustomerId(deps.db, user.userId);
    if (existing) return existing;
  }
  const customerId = await createCustomer(stripe, {
    ...user,
    idempotencyKey: forceNew
      ? `quillwright-customer-${user.userId}-${Date.now()}`
      : `quillwright-customer-${user.userId}`,
  });
  if (forceNew) {
    await deps.db
      .update(billingAccounts)
      .set({ stripeCustomerId: customerId, updatedAt: new Date() })
      .where(eq(billingAccounts.userId, user.userId));
    return customerId;
  }
  return linkCustomer(deps.db, user.userId, customerId);
}

async function liveSubscriptionOf(db: Executor, userId: string) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...LIVE_STATUSES])))
    .orderBy(desc(subscriptions.stateAsOf))
    .limit(1);
  return row;
}

/** POST /api/stripe/create-checkout(-session): a Checkout URL in subscription mode for one of our prices. */
export async function startCheckout(
  deps: BillingDeps,
  user: { userId: string; email: string },
  priceId: string,
): Promise<{ url: string }> {
  const stripe = await requireStripe(deps.config);
  if (!priceCatalog(deps.config).has(priceId)) {
    throw badRequest('Price information not available.', 'unknown_price');
  }
  if (await liveSubscriptionOf(deps.db, user.userId)) {
    // A second subscription would bill twice; plan changes go through the billing portal.
    throw conflict(
      'You already have an active subscription. Use Manage Billing to change your plan.',
      'subscription_exists',
    );
  }
  const appUrl = deps.config.APP_URL;
  const params = {
    userId: user.userId,
    priceId,
    successUrl: `${appUrl}/subscription-success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${appUrl}/subscription-cancel`,
  };
  const session = await callStripe(deps, 'Failed to create checkout session', async () => {
    const customerId = await ensureCustomer(deps, stripe, user);
    try {
      return await createCheckoutSession(stripe, { ...params, customerId });
    } catch (error) {
      // The stored customer was deleted in Stripe (or belongs to another Stripe account): start afresh.
      if (!isMissingResource(error, 'customer')) throw error;
      deps.log?.warn(
        { userId: user.userId, customerId },
        'stored Stripe customer is gone; creating a new one',
      );
      const fresh = await ensureCustomer(deps, stripe, user, true);
      return createCheckoutSession(stripe, { ...params, customerId: fresh });
    }
  });
  if (!session.url) throw new AppError(502, 'stripe_error', 'No checkout URL received');
  return { url: session.url };
}

/** POST /api/stripe/create-portal: Stripe's billing portal for the user's customer. */
export async function openBillingPortal(deps: BillingDeps, userId: string): Promise<{ url: string }> {
  const stripe = await requireStripe(deps.config);
  const customerId = await storedCustomerId(deps.db, userId);
  if (!customerId) {
    throw badRequest('You have no billing account yet. Choose a plan first.', 'no_billing_account');
  }
  const url = await callStripe(deps, 'Failed to create portal session', () =>
    createPortalSession(stripe, { customerId, returnUrl: `${deps.config.APP_URL}/` }),
  );
  return { url };
}
