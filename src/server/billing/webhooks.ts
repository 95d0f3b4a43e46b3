import { eq } from 'drizzle-orm';
import {
  constructWebhookEvent,
  idOf,
  retrieveSubscription,
  type StripeClient,
  type StripeEvent,
  type StripeSubscription,
} from './stripe';
import { stripeEvents } from '../db/schema';
import { badRequest, serviceUnavailable } from '../errors';
import { linkCustomer } from './checkout';
import { type BillingDeps, callStripe, requireStripe } from './service';
import { syncSubscription, userExists } from './subscriptions';

/** Verified Stripe webhooks, each event applied once (stripe_events). */

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
  const stripe = await requireStripe(deps.config);
  const secret = deps.config.STRIPE_WEBHOOK_SECRET;
  if (!secret)
    throw serviceUnavailable('Stripe webhooks are not set up on this server.', 'webhook_not_configured');
  if (!signature) throw badRequest('Missing Stripe-Signature header', 'invalid_signature');
  let event: StripeEvent;
  try {
    event = await constructWebhookEvent(rawBody, signature, secret);
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
