import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  constructWebhookEvent,
  createCheckoutSession,
  createCustomer,
  createPortalSession,
  idOf,
  isMissingResource,
  isStripeError,
  retrieveCheckoutSession,
  retrieveSubscription,
  stripeClient,
  type StripeClient,
  type StripeEvent,
  type StripeSubscription,
} from './stripe';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { billingAccounts, documents, stripeEvents, subscriptions, users } from '../db/schema';
import { AppError, badRequest, conflict, notFound, serviceUnavailable } from '../errors';
import { PLANS, isPlanId, maxPlan, type BillingPeriod, type PlanId } from '../../shared/plans';
import type { PlansResponse, SubscriptionStatus } from '../../shared/schemas/billing';
import { limitsEnforced, planOf } from './plan-limits';

/**
 * Billing rules. The subscription state lives in our database and changes only through a verified
 * Stripe webhook, a checkout session fetched from Stripe with the caller's own credentials, or an
 * administrator (`npm run admin`). users.plan is the effective plan every other area reads:
 * the higher of the administrator's grant and the plans of the user's live subscriptions.
 */

export interface BillingDeps {
  config: Config;
  db: Db;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> | undefined;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Executor = Db | Tx;

/** Statuses in which Stripe still expects payment and the user keeps the plan (past_due: Stripe is retrying). */
const LIVE_STATUSES: readonly string[] = ['active', 'trialing', 'past_due'];

export function billingEnabled(config: Pick<Config, 'STRIPE_SECRET_KEY'>): boolean {
  return Boolean(config.STRIPE_SECRET_KEY);
}

function requireStripe(config: Config): StripeClient {
  const stripe = stripeClient(config);
  if (!stripe) throw serviceUnavailable('Billing is not set up on this server.', 'billing_disabled');
  return stripe;
}

/** Turns an SDK failure into a 502 with SPEC §8's fallback text; our own errors pass through. */
async function callStripe<T>(deps: BillingDeps, message: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof AppError || !isStripeError(error)) throw error;
    deps.log?.error({ err: error }, message);
    throw new AppError(502, 'stripe_error', message);
  }
}

// ---------------------------------------------------------------------------------------------
// Plans and prices

interface CatalogEntry {
  plan: PlanId;
  period: BillingPeriod;
}

function priceIdsOf(
  config: Config,
): Record<Exclude<PlanId, 'gratis'>, Record<BillingPeriod, string | undefined>> {
  return {
    creator: { monthly: config.STRIPE_PRICE_CREATOR_MONTHLY, annual: config.STRIPE_PRICE_CREATOR_ANNUAL },
    professional: {
      monthly: config.STRIPE_PRICE_PROFESSIONAL_MONTHLY,
      annual: config.STRIPE_PRICE_PROFESSIONAL_ANNUAL,
    },
  };
}

function productIdsOf(config: Config): Record<Exclude<PlanId, 'gratis'>, string | undefined> {
  return { creator: config.STRIPE_PRODUCT_CREATOR, professional: config.STRIPE_PRODUCT_PROFESSIONAL };
}

/** Our price ids → plan and period. Only these can be bought. */
export function priceCatalog(config: Config): Map<string, CatalogEntry> {
  const catalog = new Map<string, CatalogEntry>();
  for (const [plan, periods] of Object.entries(priceIdsOf(config)) as [
    Exclude<PlanId, 'gratis'>,
    Record<BillingPeriod, string | undefined>,
  ][]) {
    for (const period of ['monthly', 'annual'] as const) {
      const id = periods[period];
      if (id) catalog.set(id, { plan, period });
    }
  }
  return catalog;
}

/** The plan a Stripe price stands for: by price id, else by product id; null when it is not ours. */
export function planForPrice(
  config: Config,
  priceId: string | null,
  productId: string | null,
): PlanId | null {
  if (priceId) {
    const entry = priceCatalog(config).get(priceId);
    if (entry) return entry.plan;
  }
  if (productId) {
    for (const [plan, id] of Object.entries(productIdsOf(config))) {
      if (id && id === productId && isPlanId(plan)) return plan;
    }
  }
  return null;
}

/** GET /api/plans: SPEC §9's plans with this server's price ids. Contains no secret. */
export function publicPlans(config: Config): PlansResponse {
  const prices = priceIdsOf(config);
  const products = productIdsOf(config);
  return {
    billingEnabled: billingEnabled(config),
    limitsEnforced: limitsEnforced(config),
    plans: PLANS.map((plan) => {
      const ids = plan.id === 'gratis' ? undefined : prices[plan.id];
      return {
        id: plan.id,
        name: plan.name,
        price: plan.monthlyPrice,
        period: 'month' as const,
        priceId: ids?.monthly ?? null,
        productId: plan.id === 'gratis' ? null : (products[plan.id] ?? null),
        features: [...plan.features],
        popular: plan.popular,
        prices: {
          monthly: { amount: plan.monthlyPrice, priceId: ids?.monthly ?? null },
          annual: { amount: plan.annualPrice, priceId: ids?.annual ?? null },
        },
        limits: { ...plan.limits },
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Customers, checkout, portal

async function storedCustomerId(db: Executor, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: billingAccounts.stripeCustomerId })
    .from(billingAccounts)
    .where(eq(billingAccounts.userId, userId))
    .limit(1);
  return row?.id ?? null;
}

/** Links a Stripe customer to a user unless the user already has one; returns the customer kept. */
async function linkCustomer(db: Executor, userId: string, customerId: string): Promise<string> {
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
  const stripe = requireStripe(deps.config);
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
  const stripe = requireStripe(deps.config);
  const customerId = await storedCustomerId(deps.db, userId);
  if (!customerId) {
    throw badRequest('You have no billing account yet. Choose a plan first.', 'no_billing_account');
  }
  const url = await callStripe(deps, 'Failed to create portal session', () =>
    createPortalSession(stripe, { customerId, returnUrl: `${deps.config.APP_URL}/` }),
  );
  return { url };
}

// ---------------------------------------------------------------------------------------------
// Subscription state

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

async function userExists(db: Executor, userId: string): Promise<boolean> {
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
  const stripe = requireStripe(deps.config);
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

// ---------------------------------------------------------------------------------------------
// Webhooks

export const HANDLED_EVENT_TYPES = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
] as const;

interface PreparedEvent {
  /** A checkout completion links its customer to the user in client_reference_id. */
  link?: { userId: string; customerId: string };
  subscription?: StripeSubscription;
  asOf: Date;
}

/** Reads what an event means, fetching fresh state from Stripe where the event carries only an id. */
async function prepareEvent(
  deps: BillingDeps,
  stripe: StripeClient,
  event: StripeEvent,
): Promise<PreparedEvent> {
  const eventTime = new Date(event.created * 1000);
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      if (session.mode !== 'subscription') return { asOf: eventTime };
      const customerId = idOf(session.customer);
      const userId = session.client_reference_id;
      const prepared: PreparedEvent = { asOf: new Date() };
      if (userId && customerId && (await userExists(deps.db, userId))) prepared.link = { userId, customerId };
      const subscriptionId = idOf(session.subscription as string | { id: string } | null);
      if (subscriptionId) prepared.subscription = await retrieveSubscription(stripe, subscriptionId);
      return prepared;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return { subscription: event.data.object, asOf: eventTime };
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
      const subscriptionId = idOf(
        (invoice.parent?.subscription_details?.subscription as string | { id: string } | undefined) ?? legacy,
      );
      if (!subscriptionId) return { asOf: eventTime };
      // The failure itself moves the subscription to past_due (or unpaid); read that state from Stripe.
      return { subscription: await retrieveSubscription(stripe, subscriptionId), asOf: new Date() };
    }
    default:
      return { asOf: eventTime };
  }
}

/**
 * POST /api/stripe/webhook. The signature is checked over the exact raw body. Each event is applied
 * once: its id is recorded in the same transaction as its effect, so a replay changes nothing and a
 * failure leaves it unrecorded for Stripe's retry.
 */
export async function handleWebhook(
  deps: BillingDeps,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ received: true; duplicate: boolean; type: string }> {
  const stripe = requireStripe(deps.config);
  const secret = deps.config.STRIPE_WEBHOOK_SECRET;
  if (!secret)
    throw serviceUnavailable('Stripe webhooks are not set up on this server.', 'webhook_not_configured');
  if (!signature) throw badRequest('Missing Stripe-Signature header', 'invalid_signature');
  let event: StripeEvent;
  try {
    event = constructWebhookEvent(rawBody, signature, secret);
  } catch {
    throw badRequest('Invalid webhook signature', 'invalid_signature');
  }

  const seen = await deps.db
    .select({ id: stripeEvents.id })
    .from(stripeEvents)
    .where(eq(stripeEvents.id, event.id))
    .limit(1);
  if (seen.length > 0) return { received: true, duplicate: true, type: event.type };

  const prepared = await callStripe(deps, 'Failed to process webhook', () =>
    prepareEvent(deps, stripe, event),
  );
  const duplicate = await deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, eventCreatedAt: new Date(event.created * 1000) })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (inserted.length === 0) return true;
    if (prepared.link) await linkCustomer(tx, prepared.link.userId, prepared.link.customerId);
    if (prepared.subscription) await syncSubscription(deps, tx, prepared.subscription, prepared.asOf);
    return false;
  });
  deps.log?.info({ event: event.id, type: event.type, duplicate }, 'Stripe webhook processed');
  return { received: true, duplicate, type: event.type };
}

// ---------------------------------------------------------------------------------------------
// Administration (scripts/admin.ts)

export interface AdminUserRow {
  email: string;
  plan: PlanId;
  grantedPlan: PlanId | null;
  subscription: string | null;
  documents: number;
  createdAt: Date;
}

/**
 * Grants a plan without Stripe. 'gratis' removes the grant; the effective plan is still the higher of
 * the grant and any live subscription (an administrator cannot take away what a customer pays for).
 */
export async function setGrantedPlan(
  db: Db,
  email: string,
  plan: PlanId,
): Promise<{ email: string; plan: PlanId; grantedPlan: PlanId | null }> {
  const normalized = email.trim().toLowerCase();
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(eq(users.email, normalized))
      .for('update')
      .limit(1);
    if (!user) throw notFound(`No user with e-mail ${normalized}`, 'user_not_found');
    const grantedPlan = plan === 'gratis' ? null : plan;
    await tx
      .insert(billingAccounts)
      .values({ userId: user.id, grantedPlan })
      .onConflictDoUpdate({ target: billingAccounts.userId, set: { grantedPlan, updatedAt: new Date() } });
    const effective = await recomputeUserPlan(tx, user.id);
    return { email: user.email, plan: effective, grantedPlan };
  });
}

export async function listUsersForAdmin(db: Db): Promise<AdminUserRow[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      plan: users.plan,
      createdAt: users.createdAt,
      grantedPlan: billingAccounts.grantedPlan,
    })
    .from(users)
    .leftJoin(billingAccounts, eq(billingAccounts.userId, users.id))
    .orderBy(users.createdAt);
  const docCounts = await db
    .select({ userId: documents.userId, n: count() })
    .from(documents)
    .groupBy(documents.userId);
  const docsBy = new Map(docCounts.map((r) => [r.userId, Number(r.n)]));
  const subs = await db
    .select({ userId: subscriptions.userId, status: subscriptions.status, plan: subscriptions.plan })
    .from(subscriptions)
    .orderBy(desc(subscriptions.stateAsOf));
  const subBy = new Map<string, string>();
  for (const s of subs) if (!subBy.has(s.userId)) subBy.set(s.userId, `${s.plan} (${s.status})`);
  return rows.map((r) => ({
    email: r.email,
    plan: planOf(r.plan),
    grantedPlan: r.grantedPlan && isPlanId(r.grantedPlan) ? r.grantedPlan : null,
    subscription: subBy.get(r.id) ?? null,
    documents: docsBy.get(r.id) ?? 0,
    createdAt: r.createdAt,
  }));
}
