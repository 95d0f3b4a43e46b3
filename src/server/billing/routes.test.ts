import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeEvents, subscriptions, users } from '../db/schema';
import { setGrantedPlan } from './admin';
import { startFakeStripe, type FakeStripe } from '../test/fake-stripe';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

const PRICES = {
  STRIPE_PRICE_CREATOR_MONTHLY: 'price_creator_monthly',
  STRIPE_PRICE_CREATOR_ANNUAL: 'price_creator_annual',
  STRIPE_PRICE_PROFESSIONAL_MONTHLY: 'price_pro_monthly',
  STRIPE_PRICE_PROFESSIONAL_ANNUAL: 'price_pro_annual',
};

const now = () => Math.floor(Date.now() / 1000);

async function planOf(server: TestServer, userId: string) {
  const [row] = await server.database.db.select({ plan: users.plan }).from(users).where(eq(users.id, userId));
  return row?.plan;
}

describe('billing without Stripe', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('serves the plans with billingEnabled false and no price ids', async () => {
    const res = await server.request('GET', '/api/plans');
    expect(res.status).toBe(200);
    expect(res.body.billingEnabled).toBe(false);
    expect(res.body.limitsEnforced).toBe(false);
    expect(res.body.plans.map((p: any) => p.id)).toEqual(['gratis', 'creator', 'professional']);
    expect(res.body.plans.map((p: any) => p.price)).toEqual([0, 12, 24]);
    expect(res.body.plans[1].popular).toBe(true);
    expect(res.body.plans.every((p: any) => p.priceId === null)).toBe(true);
  });

  it('answers 503 billing_disabled on every Stripe action', async () => {
    const user = await createUser(server);
    const calls: [string, string, unknown][] = [
      ['POST', '/api/stripe/create-checkout', { priceId: 'price_x' }],
      ['POST', '/api/stripe/create-checkout-session', { priceId: 'price_x' }],
      ['POST', '/api/stripe/create-portal', undefined],
      ['POST', '/api/stripe/payment-success', { sessionId: 'cs_x' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.request(method, path, { token: user.token, body });
      expect(res.status, path).toBe(503);
      expect(res.body).toMatchObject({
        code: 'billing_disabled',
        message: 'Billing is not set up on this server.',
      });
    }
    const hook = await server.request('POST', '/api/stripe/webhook', { rawBody: '{}' });
    expect(hook.status).toBe(503);
  });

  it('still reports the subscription status, including an administrator-granted plan', async () => {
    const user = await createUser(server);
    const before = await server.request('GET', '/api/stripe/subscription-status', { token: user.token });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      isActive: false,
      planName: 'gratis',
      status: 'inactive',
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
    });
    await setGrantedPlan(server.database.db, user.email, 'creator');
    const after = await server.request('GET', '/api/stripe/subscription-status', { token: user.token });
    expect(after.body).toMatchObject({ isActive: true, planName: 'creator', status: 'active' });
  });

  it('requires the bearer token', async () => {
    const res = await server.request('GET', '/api/stripe/subscription-status');
    expect(res.status).toBe(401);
    const checkout = await server.request('POST', '/api/stripe/create-checkout', { body: { priceId: 'p' } });
    expect(checkout.status).toBe(401);
  });
});

describe('billing with Stripe (local stand-in)', () => {
  let fake: FakeStripe;
  let server: TestServer;

  beforeAll(async () => {
    fake = await startFakeStripe({ prices: Object.values(PRICES) });
    server = await startTestServer({
      env: {
        STRIPE_SECRET_KEY: fake.apiKey,
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_API_BASE: fake.url,
        ...PRICES,
      },
    });
    fake.setWebhookUrl(`${server.url}/api/stripe/webhook`);
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  async function checkout(user: TestUser, priceId = PRICES.STRIPE_PRICE_CREATOR_MONTHLY) {
    const res = await server.request('POST', '/api/stripe/create-checkout', {
      token: user.token,
      body: { priceId },
    });
    expect(res.status).toBe(200);
    const sessionId = /\/pay\/([^/]+)$/.exec(res.body.url)?.[1];
    expect(sessionId).toBeTruthy();
    return sessionId!;
  }

  async function subscribe(user: TestUser, priceId?: string) {
    const sessionId = await checkout(user, priceId);
    const { subscription } = await fake.completeCheckout(sessionId);
    return { sessionId, subscriptionId: subscription.id as string };
  }

  const status = async (user: TestUser) =>
    (await server.request('GET', '/api/stripe/subscription-status', { token: user.token })).body;

  it('serves price ids and billingEnabled without leaking secrets', async () => {
    const res = await server.request('GET', '/api/plans');
    expect(res.body.billingEnabled).toBe(true);
    expect(res.body.limitsEnforced).toBe(true);
    expect(res.body.plans[1]).toMatchObject({
      id: 'creator',
      priceId: 'price_creator_monthly',
      prices: { annual: { amount: 120, priceId: 'price_creator_annual' } },
    });
    expect(res.text).not.toContain(fake.apiKey);
    expect(res.text).not.toContain(fake.webhookSecret);
  });

  it('checkout creates one Stripe customer per user and reuses it', async () => {
    const alice = await createUser(server);
    const bob = await createUser(server);
    await checkout(alice);
    await checkout(alice, PRICES.STRIPE_PRICE_PROFESSIONAL_ANNUAL);
    await server.request('POST', '/api/stripe/create-checkout-session', {
      token: alice.token,
      body: { priceId: PRICES.STRIPE_PRICE_CREATOR_ANNUAL },
    });
    await checkout(bob);
    const aliceCustomers = [...fake.customers.values()].filter((c) => c.metadata.userId === alice.id);
    const bobCustomers = [...fake.customers.values()].filter((c) => c.metadata.userId === bob.id);
    expect(aliceCustomers).toHaveLength(1);
    expect(bobCustomers).toHaveLength(1);
    expect(aliceCustomers[0]!.email).toBe(alice.email);
    const aliceSessions = [...fake.sessions.values()].filter((s) => s.client_reference_id === alice.id);
    expect(aliceSessions).toHaveLength(3);
    for (const session of aliceSessions) {
      expect(session.customer).toBe(aliceCustomers[0]!.id);
      expect(session.mode).toBe('subscription');
      expect(session.success_url).toBe(
        'http://localhost:3000/subscription-success?session_id={CHECKOUT_SESSION_ID}',
      );
      expect(session.cancel_url).toBe('http://localhost:3000/subscription-cancel');
      expect(session.metadata.userId).toBe(alice.id);
    }
  });

  it('refuses a price that is not ours, and a missing one', async () => {
    const user = await createUser(server);
    const foreign = await server.request('POST', '/api/stripe/create-checkout', {
      token: user.token,
      body: { priceId: 'price_somebody_else' },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({
      code: 'unknown_price',
      message: 'Price information not available.',
    });
    const none = await server.request('POST', '/api/stripe/create-checkout', { token: user.token, body: {} });
    expect(none.status).toBe(400);
    expect(none.body.code).toBe('validation_failed');
  });

  it('a completed checkout (verified webhooks) activates the plan', async () => {
    const user = await createUser(server);
    expect((await status(user)).planName).toBe('gratis');
    await subscribe(user);
    const body = await status(user);
    expect(body).toMatchObject({
      isActive: true,
      planName: 'creator',
      status: 'active',
      cancelAtPeriodEnd: false,
    });
    expect(Date.parse(body.currentPeriodEnd)).toBeGreaterThan(Date.now() + 25 * 86_400_000);
    expect(await planOf(server, user.id)).toBe('creator');
  });

  it('a second checkout while subscribed is refused (plan changes go through the portal)', async () => {
    const user = await createUser(server);
    await subscribe(user);
    const res = await server.request('POST', '/api/stripe/create-checkout', {
      token: user.token,
      body: { priceId: PRICES.STRIPE_PRICE_PROFESSIONAL_MONTHLY },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('subscription_exists');
  });

  it('a webhook with a bad signature answers 400 and changes nothing', async () => {
    const user = await createUser(server);
    const sessionId = await checkout(user);
    const { session, subscription } = await fake.completeCheckout(sessionId, { sendWebhooks: false });
    for (const type of ['checkout.session.completed', 'customer.subscription.created']) {
      const event = fake.buildEvent(type, type.startsWith('checkout') ? session : subscription);
      const { payload, header } = fake.sign(event, 'whsec_wrong_secret');
      const res = await server.request('POST', '/api/stripe/webhook', {
        rawBody: payload,
        headers: { 'stripe-signature': header },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_signature', message: 'Invalid webhook signature' });
    }
    // A correctly signed body that was altered after signing fails too.
    const event = fake.buildEvent('customer.subscription.created', subscription);
    const { payload, header } = fake.sign(event);
    const tampered = await server.request('POST', '/api/stripe/webhook', {
      rawBody: payload.replace('"active"', '"trialing"'),
      headers: { 'stripe-signature': header },
    });
    expect(tampered.status).toBe(400);
    const unsigned = await server.request('POST', '/api/stripe/webhook', { rawBody: payload });
    expect(unsigned.status).toBe(400);
    expect(await status(user)).toMatchObject({ planName: 'gratis', isActive: false });
    const rows = await server.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, user.id));
    expect(rows).toHaveLength(0);
  });

  it('the signature is checked on the raw bytes (whitespace the JSON parser would drop still counts)', async () => {
    const user = await createUser(server);
    const { subscriptionId } = await subscribe(user);
    const event = fake.buildEvent(
      'customer.subscription.updated',
      { ...fake.subscriptions.get(subscriptionId), cancel_at_period_end: true },
      now() + 5,
    );
    const payload = JSON.stringify(event, null, 2);
    const { header } = { header: fake.sign(event).header.replace(/v1=[^,]+/, '') };
    const bad = await server.request('POST', '/api/stripe/webhook', {
      rawBody: payload,
      headers: { 'stripe-signature': header },
    });
    expect(bad.status).toBe(400);
    const { default: Stripe } = await import('stripe');
    const good = Stripe.webhooks.generateTestHeaderString({ payload, secret: fake.webhookSecret });
    const ok = await server.request('POST', '/api/stripe/webhook', {
      rawBody: payload,
      headers: { 'stripe-signature': good },
    });
    expect(ok.status).toBe(200);
    expect((await status(user)).cancelAtPeriodEnd).toBe(true);
  });

  it('a replayed event is a no-op', async () => {
    const user = await createUser(server);
    const { subscriptionId } = await subscribe(user);
    const sub = fake.subscriptions.get(subscriptionId)!;
    const cancel = fake.buildEvent(
      'customer.subscription.updated',
      { ...sub, cancel_at_period_end: true },
      now() + 10,
    );
    const first = await fake.sendEvent(cancel);
    expect(first).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
    expect((await status(user)).cancelAtPeriodEnd).toBe(true);
    const resume = fake.buildEvent(
      'customer.subscription.updated',
      { ...sub, cancel_at_period_end: false },
      now() + 20,
    );
    await fake.sendEvent(resume);
    expect((await status(user)).cancelAtPeriodEnd).toBe(false);

    const countBefore = (await server.database.db.select().from(stripeEvents)).length;
    const replay = await fake.sendEvent(cancel);
    expect(replay).toMatchObject({ status: 200, body: { received: true, duplicate: true } });
    expect((await status(user)).cancelAtPeriodEnd).toBe(false);
    expect((await server.database.db.select().from(stripeEvents)).length).toBe(countBefore);
  });

  it('an update to cancel at period end shows "ends" (cancelAtPeriodEnd) with the period end date', async () => {
    const user = await createUser(server);
    const { subscriptionId } = await subscribe(user);
    const periodEnd = now() + 12 * 86_400;
    const sub = fake.updateSubscription(subscriptionId, { cancel_at_period_end: true });
    sub.items.data[0].current_period_end = periodEnd;
    const res = await fake.sendEvent(fake.buildEvent('customer.subscription.updated', sub, now() + 1));
    expect(res.status).toBe(200);
    expect(await status(user)).toEqual({
      isActive: true,
      planName: 'creator',
      status: 'active',
      currentPeriodEnd: new Date(periodEnd * 1000).toISOString(),
      cancelAtPeriodEnd: true,
    });
  });

  it('a cancellation scheduled with cancel_at (newer API versions) also shows "ends" on that date', async () => {
    const user = await createUser(server);
    const { subscriptionId } = await subscribe(user);
    const cancelAt = now() + 3 * 86_400;
    const sub = fake.updateSubscription(subscriptionId, { cancel_at: cancelAt });
    await fake.sendEvent(fake.buildEvent('customer.subscription.updated', sub, now() + 1));
    expect(await status(user)).toMatchObject({
      cancelAtPeriodEnd: true,
      currentPeriodEnd: new Date(cancelAt * 1000).toISOString(),
    });
  });

  it('an older event delivered after a newer one does not roll the state back', async () => {
    const user = await createUser(server);
    const { subscriptionId } = await subscribe(user);
    const sub = fake.subscriptions.get(subscriptionId)!;
    await fake.sendEvent(
      fake.buildEvent('customer.subscription.updated', { ...sub, cancel_at_period_end: true }, now() + 30),
    );
    const late = await fake.sendEvent(
      fake.buildEvent('customer.subscription.updated', { ...sub, cancel_at_period_end: false }, now() + 15),
    );
    expect(late.status).toBe(200);
    expect((await status(user)).cancelAtPeriodEnd).toBe(true);
  });

  it('a deleted subscription puts the user back on Gratis', async () => {
    const user = await createUser(server, { email: `deleted-${Date.now()}@example.com` });
    const { subscriptionId } = await subscribe(user, PRICES.STRIPE_PRICE_PROFESSIONAL_ANNUAL);
    expect((await status(user)).planName).toBe('professional');
    const sub = fake.updateSubscription(subscriptionId, {
      status: 'canceled',
      ended_at: now(),
      canceled_at: now(),
    });
    await fake.sendEvent(fake.buildEvent('customer.subscription.deleted', sub, now() + 2));
    expect(await status(user)).toEqual({
      isActive: false,
      planName: 'gratis',
      status: 'canceled',
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
    });
    expect(await planOf(server, user.id)).toBe('gratis');
    // An administrator's grant survives the end of a paid subscription.
    await setGrantedPlan(server.database.db, user.email, 'creator');
    expect((await status(user)).planName).toBe('creator');
  });

  it('a failed invoice payment moves the subscription to past_due and keeps the plan while Stripe retries', async () => {
    const user = await createUser(server);
    const { subscriptionId } = await subscribe(user);
    fake.updateSubscription(subscriptionId, { status: 'past_due' });
    const invoice = {
      id: 'in_test_1',
      object: 'invoice',
      customer: fake.subscriptions.get(subscriptionId)!.customer,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscriptionId, metadata: {} },
      },
    };
    const res = await fake.sendEvent(fake.buildEvent('invoice.payment_failed', invoice));
    expect(res.status).toBe(200);
    expect(await status(user)).toMatchObject({ status: 'past_due', planName: 'creator', isActive: true });
  });

  it("payment-success confirms the caller's own paid session", async () => {
    const user = await createUser(server);
    const sessionId = await checkout(user, PRICES.STRIPE_PRICE_PROFESSIONAL_MONTHLY);
    await fake.completeCheckout(sessionId, { sendWebhooks: false });
    expect((await status(user)).planName).toBe('gratis');
    const res = await server.request('POST', '/api/stripe/payment-success', {
      token: user.token,
      body: { sessionId },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isActive: true, planName: 'professional', status: 'active' });
    // The webhooks arriving afterwards change nothing more.
    const session = fake.sessions.get(sessionId)!;
    await fake.sendEvent(fake.buildEvent('checkout.session.completed', session));
    expect((await status(user)).planName).toBe('professional');
  });

  it("payment-success with another user's session is refused", async () => {
    const owner = await createUser(server);
    const intruder = await createUser(server);
    const sessionId = await checkout(owner);
    await fake.completeCheckout(sessionId, { sendWebhooks: false });
    const res = await server.request('POST', '/api/stripe/payment-success', {
      token: intruder.token,
      body: { sessionId },
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('checkout_session_not_found');
    expect((await status(intruder)).planName).toBe('gratis');
    expect(await planOf(server, intruder.id)).toBe('gratis');
  });

  it('payment-success refuses an unpaid session and an unknown one', async () => {
    const user = await createUser(server);
    const sessionId = await checkout(user);
    const unpaid = await server.request('POST', '/api/stripe/payment-success', {
      token: user.token,
      body: { sessionId },
    });
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.code).toBe('payment_incomplete');
    const unknown = await server.request('POST', '/api/stripe/payment-success', {
      token: user.token,
      body: { sessionId: 'cs_test_nope' },
    });
    expect(unknown.status).toBe(404);
    expect((await status(user)).planName).toBe('gratis');
  });

  it('the billing portal needs a customer and then opens for it', async () => {
    const user = await createUser(server);
    const before = await server.request('POST', '/api/stripe/create-portal', { token: user.token });
    expect(before.status).toBe(400);
    expect(before.body.code).toBe('no_billing_account');
    await checkout(user);
    const res = await server.request('POST', '/api/stripe/create-portal', { token: user.token });
    expect(res.status).toBe(200);
    const customer = [...fake.customers.values()].find((c) => c.metadata.userId === user.id)!;
    expect(res.body.url).toBe(`${fake.url}/portal/${customer.id}`);
    expect(fake.portalSessions.at(-1)).toMatchObject({
      customer: customer.id,
      return_url: 'http://localhost:3000/',
    });
  });

  it('a customer deleted in Stripe is replaced on the next checkout', async () => {
    const user = await createUser(server);
    await checkout(user);
    const first = [...fake.customers.values()].find((c) => c.metadata.userId === user.id)!;
    fake.customers.delete(first.id);
    await checkout(user);
    const second = [...fake.customers.values()].find((c) => c.metadata.userId === user.id)!;
    expect(second.id).not.toBe(first.id);
    await checkout(user);
    expect([...fake.customers.values()].filter((c) => c.metadata.userId === user.id)).toHaveLength(1);
  });

  it('a Stripe failure answers 502 with the user-facing fallback message', async () => {
    const broken = await startTestServer({
      env: { STRIPE_SECRET_KEY: 'sk_test_wrong', STRIPE_API_BASE: fake.url, ...PRICES },
    });
    try {
      const other = await createUser(broken);
      const res = await broken.request('POST', '/api/stripe/create-checkout', {
        token: other.token,
        body: { priceId: PRICES.STRIPE_PRICE_CREATOR_MONTHLY },
      });
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'stripe_error', message: 'Failed to create checkout session' });
    } finally {
      await broken.close();
    }
  });
});
