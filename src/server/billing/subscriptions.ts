import { and, desc, eq, inArray } from 'drizzle-orm';
import {
  idOf,
  isMissingResource,
  retrieveCheckoutSession,
  retrieveSubscription,
  type StripeSubscription,
} from './stripe';
import { billingAccounts, subscriptions, users } from '../db/schema';
import { AppError, badRequest, conflict, notFound } from '../errors';
import { maxPlan, type PlanId } from '../../shared/plans';
import type { SubscriptionStatus } from '../../shared/schemas/billing';
import { planOf } from './plan-limits';
import { planForPrice } from './catalog';
import { linkCustomer, storedCustomerId } from './checkout';
import { type BillingDeps, type Executor, LIVE_STATUSES, callStripe, requireStripe } from './service';

/**
 * Subscription state: what a user pays for, synced from Stripe, and the effective plan (users.plan) derived
 * from it and the administrator's grant.
 */

/**
 * GET /api/stripe/subscription-status, from our database only (works without Stripe: an
 * administrator-granted plan shows as active with no period end).
 */
export async function getSubscriptionStatus(db: Executor, userId: string): Promise<SubscriptionStatus> {
  const [user] = await db.select({ plan: users.plan }).from(users).where(eq(users.id, userId)).limit(1);
  const planName = planOf(user?.plan);
  const rows = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.stateAsOf));
  const live = rows.filter((r) => LIVE_STATUSES.includes(r.status));
  // With several live subscriptions the one giving the effective plan is shown.
  const current = live.find((r) => r.plan === planName) ?? live[0];
  if (current) {
    const endsAt = current.cancelAt ?? current.currentPeriodEnd;
    return {
      isActive: planName !== 'gratis',
      planName,
      status: current.status,
      currentPeriodEnd: endsAt ? endsAt.toISOString() : null,
      cancelAtPeriodEnd: current.cancelAtPeriodEnd || current.cancelAt !== null,
    };
  }
  return {
    isActive: planName !== 'gratis',
    planName,
    status: planName !== 'gratis' ? 'active' : (rows[0]?.status ?? 'inactive'),
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
  };
}

/** users.plan := the higher of the administrator's grant and the plans of live subscriptions. */
export async function recomputeUserPlan(db: Executor, userId: string): Promise<PlanId> {
  const [account] = await db
    .select({ grantedPlan: billingAccounts.grantedPlan })
    .from(billingAccounts)
    .where(eq(billingAccounts.userId, userId))
    .limit(1);
  const live = await db
    .select({ plan: subscriptions.plan })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...LIVE_STATUSES])));
  let plan: PlanId = planOf(account?.grantedPlan);
  for (const row of live) plan = maxPlan(plan, planOf(row.plan));
  await db.update(users).set({ plan, updatedAt: new Date() }).where(eq(users.id, userId));
  return plan;
}

/** Seconds resolution, like Stripe's `created`: an event of the same second as a retrieval still applies. */
function secondsDate(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

export async function userExists(db: Executor, userId: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return false;
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  return Boolean(row);
}

/** Whose subscription this is: the user linked to its customer, else the user id we put in its metadata. */
async function ownerOf(db: Executor, customerId: string | null, metadataUserId: string | undefined) {
  if (customerId) {
    const [row] = await db
      .select({ userId: billingAccounts.userId })
      .from(billingAccounts)
      .where(eq(billingAccounts.stripeCustomerId, customerId))
      .limit(1);
    if (row) return row.userId;
  }
  if (metadataUserId && (await userExists(db, metadataUserId))) return metadataUserId;
  return null;
}

/**
 * Stores a subscription as Stripe described it at `asOf` and recomputes the owner's plan. A state
 * older than the stored one is ignored, so events delivered out of order cannot roll a change back.
 */
export async function syncSubscription(
  deps: Pick<BillingDeps, 'config' | 'log'>,
  db: Executor,
  subscription: StripeSubscription,
  asOf: Date,
): Promise<{ applied: boolean; userId: string | null }> {
  const customerId = idOf(subscription.customer);
  const userId = await ownerOf(db, customerId, subscription.metadata?.userId);
  if (!userId || !customerId) {
    deps.log?.warn({ subscription: subscription.id }, 'Stripe subscription of no known user; ignored');
    return { applied: false, userId: null };
  }
  await linkCustomer(db, userId, customerId);

  const item = subscription.items?.data?.[0];
  const priceId = item?.price?.id ?? null;
  const productId = idOf(item?.price?.product as string | { id: string } | undefined);
  const plan = planForPrice(deps.config, priceId, productId);
  if (!plan)
    deps.log?.warn({ subscription: subscription.id, priceId }, 'subscription price is not one of ours');
  // API versions since 2025-03 keep the period on the item; older webhook payloads keep it on the subscription.
  const legacyPeriodEnd = (subscription as unknown as { current_period_end?: number }).current_period_end;
  const periodEnd = item?.current_period_end ?? legacyPeriodEnd ?? null;
  const values = {
    userId,
    stripeCustomerId: customerId,
    priceId,
    plan: plan ?? 'gratis',
    status: subscription.status,
    currentPeriodEnd: periodEnd ? new Date(periodEnd * 1000) : null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    cancelAt: subscription.cancel_at ? new Date(subscription.cancel_at * 1000) : null,
    stateAsOf: secondsDate(asOf),
    updatedAt: new Date(),
  };
  const [stored] = await db
    .select({ stateAsOf: subscriptions.stateAsOf })
    .from(subscriptions)
    .where(eq(subscriptions.stripeSubscriptionId, subscription.id))
    .for('update')
    .limit(1);
  if (stored && stored.stateAsOf.getTime() > values.stateAsOf.getTime()) {
    deps.log?.info({ subscription: subscription.id }, 'older Stripe state than stored; ignored');
    return { applied: false, userId };
  }
  await db
    .insert(subscriptions)
    .values({ stripeSubscriptionId: subscription.id, ...values })
    .onConflictDoUpdate({ target: subscriptions.stripeSubscriptionId, set: values });
  await recomputeUserPlan(db, userId);
  return { applied: true, userId };
}

/**
 * POST /api/stripe/payment-success: the success page's early confirmation. The session is fetched from
 * Stripe (never trusted from the URL), must belong to the caller and be complete and paid.
 */
export async function confirmCheckoutSession(
  deps: BillingDeps,
  userId: string,
  sessionId: string,
): Promise<SubscriptionStatus> {
  const stripe = await requireStripe(deps.config);
  const session = await callStripe(deps, 'Failed to handle payment success', async () => {
    try {
      return await retrieveCheckoutSession(stripe, sessionId);
    } catch (error) {
      if (isMissingResource(error))
        throw notFound('Checkout session not found', 'checkout_session_not_found');
      throw error;
    }
  });
  const customerId = idOf(session.customer);
  const storedCustomer = await storedCustomerId(deps.db, userId);
  const belongs = session.client_reference_id
    ? session.client_reference_id === userId
    : storedCustomer !== null && customerId === storedCustomer;
  // Another user's session answers like a missing one.
  if (!belongs) throw notFound('Checkout session not found', 'checkout_session_not_found');
  if (session.mode !== 'subscription')
    throw badRequest('Not a subscription checkout', 'not_subscription_checkout');
  const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
  if (session.status !== 'complete' || !paid) {
    throw conflict('Payment has not been completed yet.', 'payment_incomplete');
  }
  const subscriptionId = idOf(session.subscription as string | { id: string } | null);
  if (!subscriptionId || !customerId) {
    throw new AppError(502, 'stripe_error', 'Failed to handle payment success');
  }
  const subscription = await callStripe(deps, 'Failed to handle payment success', () =>
    retrieveSubscription(stripe, subscriptionId),
  );
  const retrievedAt = new Date();
  await deps.db.transaction(async (tx) => {
    await linkCustomer(tx, userId, customerId);
    await syncSubscription(deps, tx, subscription, retrievedAt);
  });
  return getSubscriptionStatus(deps.db, userId);
}
