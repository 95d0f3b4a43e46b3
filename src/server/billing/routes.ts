import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { requireUser } from '../plugins';
import { publicPlans } from './catalog';
import { openBillingPortal, startCheckout } from './checkout';
import type { BillingDeps } from './service';
import { confirmCheckoutSession, getSubscriptionStatus } from './subscriptions';
import { handleWebhook } from './webhooks';
import { parseInput } from '../validation';
import { checkoutRequestSchema, paymentSuccessRequestSchema } from '../../shared/schemas/billing';

function depsOf(request: FastifyRequest): BillingDeps {
  return { config: request.server.config, db: request.server.database.db, log: request.log };
}

/**
 * Plans and Stripe billing (docs/billing.md), mounted at /api. Every /stripe route but the
 * webhook needs the bearer token; without STRIPE_SECRET_KEY they answer 503 `billing_disabled`, except
 * subscription-status, which reads our database and so also reports administrator-granted plans.
 */
export const billingRoutes: FastifyPluginAsync = async (app) => {
  app.get('/plans', async (request) => publicPlans(request.server.config));

  const checkout = async (request: FastifyRequest) => {
    const { priceId } = parseInput(checkoutRequestSchema, request.body);
    const user = await requireUser(request);
    return startCheckout(depsOf(request), { userId: user.userId, email: user.email }, priceId);
  };
  // The dashboard's and the pricing section's names for the same action; both stay.
  app.post('/stripe/create-checkout', checkout);
  app.post('/stripe/create-checkout-session', checkout);

  app.post('/stripe/create-portal', async (request) => {
    const user = await requireUser(request);
    return openBillingPortal(depsOf(request), user.userId);
  });

  app.get('/stripe/subscription-status', async (request, reply) => {
    const user = await requireUser(request);
    reply.header('cache-control', 'no-store');
    return getSubscriptionStatus(request.server.database.db, user.userId);
  });

  app.post('/stripe/payment-success', async (request) => {
    const { sessionId } = parseInput(paymentSuccessRequestSchema, request.body);
    const user = await requireUser(request);
    return confirmCheckoutSession(depsOf(request), user.userId, sessionId);
  });

  // The signature covers the exact bytes Stripe sent, so this route (and only this one) keeps the raw
  // body: the encapsulated context replaces the JSON parser with a Buffer parser for any content type.
  await app.register(async (webhook) => {
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    webhook.post('/stripe/webhook', async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      return handleWebhook(depsOf(request), raw, Array.isArray(signature) ? signature[0] : signature);
    });
  });
};
