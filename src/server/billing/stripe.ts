import type Stripe from 'stripe';
import type { Config } from '../config';

/**
 * The one place that talks to Stripe. Services call these functions and never see HTTP; tests point
 * the real SDK at a loopback stand-in through STRIPE_API_BASE, exactly as an operator could point it
 * at a proxy.
 */

export type StripeClient = Stripe;
export type StripeSubscription = Stripe.Subscription;
export type StripeEvent = Stripe.Event;

/** SDK options for STRIPE_API_BASE (e.g. http://127.0.0.1:12111), or {} for api.stripe.com. */
function stripeHostOptions(
  apiBase: string | undefined,
): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

/**
 * The SDK, loaded with the first billing call: a server without billing never holds it (about 30 MiB of
 * resident memory once loaded). Its error classes are only ever met after it was loaded.
 */
let sdk: typeof Stripe | undefined;

async function loadSdk(): Promise<typeof Stripe> {
  sdk ??= (await import('stripe')).default;
  return sdk;
}

const clients = new WeakMap<Config, Stripe>();

/** The Stripe client for this configuration, or null when billing is disabled (no STRIPE_SECRET_KEY). */
export async function stripeClient(config: Config): Promise<Stripe | null> {
  if (!config.STRIPE_SECRET_KEY) return null;
  let client = clients.get(config);
  if (!client) {
    const StripeSdk = await loadSdk();
    client = new StripeSdk(config.STRIPE_SECRET_KEY, {
      ...stripeHostOptions(config.STRIPE_API_BASE),
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'Quillwright' },
    });
    clients.set(config, client);
  }
  return client;
}

export async function createCustomer(
  stripe: Stripe,
  input: { userId: string; email: string; idempotencyKey: string },
): Promise<string> {
  const customer = await stripe.customers.create(
    { email: input.email, metadata: { userId: input.userId } },
    // Two concurrent first checkouts of one user create one customer.
    { idempotencyKey: input.idempotencyKey },
  );
  return customer.id;
}

export async function createCheckoutSession(
  stripe: Stripe,
  input: { customerId: string; userId: string; priceId: string; successUrl: string; cancelUrl: string },
): Promise<{ id: string; url: string | null }> {
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: input.customerId,
    line_items: [{ price: input.priceId, quantity: 1 }],
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    client_reference_id: input.userId,
    metadata: { userId: input.userId },
    subscription_data: { metadata: { userId: input.userId } },
  });
  return { id: session.id, url: session.url };
}

export async function retrieveCheckoutSession(
  stripe: Stripe,
  sessionId: string,
): Promise<Stripe.Checkout.Session> {
  return stripe.checkout.sessions.retrieve(sessionId);
}

export async function retrieveSubscription(
  stripe: Stripe,
  subscriptionId: string,
): Promise<Stripe.Subscription> {
  return stripe.subscriptions.retrieve(subscriptionId);
}

export async function createPortalSession(
  stripe: Stripe,
  input: { customerId: string; returnUrl: string },
): Promise<string> {
  const session = await stripe.billingPortal.sessions.create({
    customer: input.customerId,
    return_url: input.returnUrl,
  });
  return session.url;
}

/** Verifies the Stripe-Signature header over the exact raw body; throws on a bad or stale signature. */
export async function constructWebhookEvent(
  payload: Buffer | string,
  signature: string,
  secret: string,
): Promise<Stripe.Event> {
  return (await loadSdk()).webhooks.constructEvent(payload, signature, secret);
}

/** True for Stripe's "no such object" answers (e.g. a customer deleted in the dashboard). */
export function isMissingResource(error: unknown, param?: string): boolean {
  if (!sdk || !(error instanceof sdk.errors.StripeInvalidRequestError)) return false;
  return error.code === 'resource_missing' && (param === undefined || error.param === param);
}

/** A field that may be an id or an expanded object. */
export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** Any error the SDK raised talking to Stripe (network, auth, invalid request, ...). */
export function isStripeError(error: unknown): boolean {
  return sdk !== undefined && error instanceof sdk.errors.StripeError;
}
