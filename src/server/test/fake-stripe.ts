import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local stand-in for the few Stripe API endpoints Quillwright uses, speaking Stripe's wire protocol
 * (form-encoded requests, bearer secret key, JSON objects and error bodies), so the real `stripe` SDK
 * can be pointed at it with STRIPE_API_BASE. It also plays Stripe's side of a payment: a checkout page
 * (`GET /pay/:id`) whose Pay button completes the session, creates the subscription, sends signed
 * webhooks and redirects to the success URL — used by the browser tests.
 *
 * Endpoints: POST/GET /v1/customers[/:id], POST/GET /v1/checkout/sessions[/:id],
 * POST /v1/billing_portal/sessions, GET /v1/subscriptions/:id. Control endpoints for tests in another
 * process: POST /_test/checkout/:id/complete, POST /_test/subscriptions/:id (form body = patch).
 */

export interface FakeStripeOptions {
  apiKey?: string;
  webhookSecret?: string;
  /** Where webhooks go; may be set later with `setWebhookUrl`. */
  webhookUrl?: string;
  /** Price ids the fake accepts; any price is accepted when omitted. */
  prices?: string[];
  port?: number;
}

type Json = Record<string, any>;

export interface FakeStripe {
  url: string;
  apiKey: string;
  webhookSecret: string;
  customers: Map<string, Json>;
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  portalSessions: Json[];
  /** Every API request received (method, path, parsed body). */
  requests: { method: string; path: string; body: Json }[];
  setWebhookUrl(url: string): void;
  /** Pays a session: creates its subscription and, unless told not to, sends the webhooks. */
  completeCheckout(
    sessionId: string,
    options?: { sendWebhooks?: boolean },
  ): Promise<{ session: Json; subscription: Json }>;
  updateSubscription(id: string, patch: Json): Json;
  /** A Stripe event object around `object`. */
  buildEvent(type: string, object: Json, created?: number): Json;
  /** The payload and Stripe-Signature header for an event (signed with the webhook secret unless given one). */
  sign(event: Json, secret?: string): { payload: string; header: string };
  /** Signs and POSTs an event to the webhook URL; returns Quillwright's answer. */
  sendEvent(event: Json): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const DAY = 86_400;

/** Decodes Stripe's form encoding (`a[b][0][c]=1`) into nested objects and arrays. */
function parseStripeForm(body: string): Json {
  const root: Json = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let node: any = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(parts[i + 1] ?? '');
      const key = part === '' && Array.isArray(node) ? node.length : part;
      if (last) {
        node[key] = value;
      } else {
        node[key] ??= nextIsIndex ? [] : {};
        node = node[key];
      }
    });
  }
  return root;
}

function stripeError(status: number, message: string, extra: Json = {}): { status: number; body: Json } {
  return { status, body: { error: { type: 'invalid_request_error', message, ...extra } } };
}

function missing(kind: string, id: string, param = 'id') {
  return stripeError(404, `No such ${kind}: '${id}'`, { code: 'resource_missing', param });
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: Json) {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
  response.end(JSON.stringify(body));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const apiKey = options.apiKey ?? 'sk_test_fake_quillwright';
  const webhookSecret = options.webhookSecret ?? 'whsec_fake_quillwright';
  let webhookUrl = options.webhookUrl;
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const portalSessions: Json[] = [];
  const requests: FakeStripe['requests'] = [];
  const idempotent = new Map<string, { status: number; body: Json }>();
  let baseUrl = '';

  function createSubscription(session: Json): Json {
    const created = nowSeconds();
    const price = session.line_items?.[0]?.price as string;
    const subscription = {
      id: newId('sub'),
      object: 'subscription',
      customer: session.customer,
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created,
      start_date: created,
      livemode: false,
      metadata: { ...(session.subscription_data?.metadata ?? {}) },
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            quantity: 1,
            current_period_start: created,
            current_period_end: created + 30 * DAY,
            price: { id: price, object: 'price', product: null, recurring: { interval: 'month' } },
          },
        ],
        has_more: false,
        url: '/v1/subscription_items',
      },
    };
    subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  const fake: FakeStripe = {
    url: '',
    apiKey,
    webhookSecret,
    customers,
    sessions,
    subscriptions,
    portalSessions,
    requests,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    async completeCheckout(sessionId, { sendWebhooks = true } = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake stripe: no session ${sessionId}`);
      if (session.status !== 'complete') {
        const subscription = createSubscription(session);
        Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id });
      }
      const subscription = subscriptions.get(session.subscription as string)!;
      if (sendWebhooks) {
        await fake.sendEvent(fake.buildEvent('checkout.session.completed', session));
        await fake.sendEvent(fake.buildEvent('customer.subscription.created', subscription));
      }
      return { session, subscription };
    },
    updateSubscription(id, patch) {
      const subscription = subscriptions.get(id);
      if (!subscription) throw new Error(`fake stripe: no subscription ${id}`);
      Object.assign(subscription, patch);
      return subscription;
    },
    buildEvent(type, object, created = nowSeconds()) {
      return {
        id: newId('evt'),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object: structuredClone(object) },
      };
    },
    sign(event, secret = webhookSecret) {
      const payload = JSON.stringify(event);
      return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
    },
    async sendEvent(event) {
      if (!webhookUrl) throw new Error('fake stripe: no webhook URL set');
      const { payload, header } = fake.sign(event);
      const response = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
        body: payload,
      });
      const text = await response.text();
      let body: any = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON
      }
      return { status: response.status, body };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function api(method: string, path: string, body: Json): { status: number; body: Json } {
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: newId('cus'),
        object: 'customer',
        email: body.email ?? null,
        metadata: body.metadata ?? {},
        created: nowSeconds(),
        livemode: false,
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'GET' && (match = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
      const customer = customers.get(match[1]!);
      return customer ? { status: 200, body: customer } : missing('customer', match[1]!);
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (body.mode !== 'subscription')
        return stripeError(400, 'Only subscription mode is faked', { param: 'mode' });
      if (body.customer && !customers.has(body.customer)) {
        return stripeError(400, `No such customer: '${body.customer}'`, {
          code: 'resource_missing',
          param: 'customer',
        });
      }
      const price = body.line_items?.[0]?.price;
      if (!price || (options.prices && !options.prices.includes(price))) {
        return stripeError(400, `No such price: '${price}'`, {
          code: 'resource_missing',
          param: 'line_items[0][price]',
        });
      }
      const id = newId('cs');
      const session = {
        id,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'open',
        payment_status: 'unpaid',
        customer: body.customer ?? null,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        subscription: null,
        line_items: body.line_items,
        subscription_data: body.subscription_data ?? {},
        url: `${baseUrl}/pay/${id}`,
        created: nowSeconds(),
        livemode: false,
      };
      sessions.set(id, session);
      return { status: 200, body: session };
    }
    if (method === 'GET' && (match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) {
      const session = sessions.get(match[1]!);
      if (!session) return missing('checkout.session', match[1]!);
      const { line_items: _items, subscription_data: _data, ...visible } = session;
      return { status: 200, body: visible };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!customers.has(body.customer)) {
        return stripeError(400, `No such customer: '${body.customer}'`, {
          code: 'resource_missing',
          param: 'customer',
        });
      }
      const portal = {
        id: newId('bps'),
        object: 'billing_portal.session',
        customer: body.customer,
        return_url: body.return_url ?? null,
        url: `${baseUrl}/portal/${body.customer}`,
        created: nowSeconds(),
        livemode: false,
      };
      portalSessions.push(portal);
      return { status: 200, body: portal };
    }
    if (method === 'GET' && (match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = subscriptions.get(match[1]!);
      return subscription ? { status: 200, body: subscription } : missing('subscription', match[1]!);
    }
    return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const method = request.method ?? 'GET';
    const raw = await readBody(request);
    const body = method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(raw);
    let match: RegExpExecArray | null;

    // The hosted checkout page of the browser tests.
    if ((match = /^\/pay\/([^/]+)$/.exec(path))) {
      const session = sessions.get(match[1]!);
      if (!session) return send(response, 404, { error: { message: 'No such checkout session' } });
      if (method === 'GET') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(
          `<!doctype html><title>Fake Stripe Checkout</title><h1>Fake Stripe Checkout</h1>` +
            `<p>Price ${escapeHtml(String(session.line_items?.[0]?.price ?? ''))}</p>` +
            `<form method="post"><button type="submit">Pay</button></form>` +
            `<a href="${escapeHtml(session.cancel_url ?? '/')}">Cancel</a>`,
        );
        return;
      }
      await fake.completeCheckout(session.id);
      const location = String(session.success_url).replace('{CHECKOUT_SESSION_ID}', session.id);
      response.writeHead(303, { location });
      response.end();
      return;
    }
    if ((match = /^\/portal\/([^/]+)$/.exec(path))) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        `<!doctype html><title>Fake Stripe Portal</title><h1>Billing portal of ${escapeHtml(match[1]!)}</h1>`,
      );
      return;
    }
    if (method === 'POST' && (match = /^\/_test\/checkout\/([^/]+)\/complete$/.exec(path))) {
      const result = await fake.completeCheckout(match[1]!);
      return send(response, 200, result);
    }
    if (method === 'POST' && (match = /^\/_test\/subscriptions\/([^/]+)$/.exec(path))) {
      return send(response, 200, fake.updateSubscription(match[1]!, body));
    }

    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return send(response, 401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
      });
    }
    requests.push({ method, path, body });
    const key = request.headers['idempotency-key'];
    const cacheKey = typeof key === 'string' && method === 'POST' ? `${path} ${key}` : undefined;
    const cached = cacheKey ? idempotent.get(cacheKey) : undefined;
    if (cached) {
      response.writeHead(cached.status, {
        'content-type': 'application/json',
        'idempotent-replayed': 'true',
      });
      response.end(JSON.stringify(cached.body));
      return;
    }
    const result = api(method, path, body);
    if (cacheKey) idempotent.set(cacheKey, result);
    send(response, result.status, result.body);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      send(response, 500, { error: { type: 'api_error', message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.url = baseUrl;
  return fake;
}
