import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { webhookInputSchema } from '../../shared/schemas/webhooks';
import { notFound } from '../errors';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import { linkNextPage, parsePageQuery } from '../pagination';
import {
  createWebhook,
  deliveriesOf,
  reenableWebhook,
  removeWebhook,
  webhooksOf,
  type WebhookContext,
} from './service';

const CREATE_RATE_LIMIT = { config: { rateLimit: { max: 20, timeWindow: '1 minute' } } };

function webhookIdOf(params: unknown): string {
  const parsed = z.object({ id: z.uuid() }).safeParse(params);
  if (!parsed.success) throw notFound('Webhook not found', 'webhook_not_found');
  return parsed.data.id;
}

/** Mounted at /api/webhooks: the signed-in user's webhooks and their delivery logs. */
export const webhookRoutes: FastifyPluginAsync<{ context: WebhookContext }> = async (app, { context }) => {
  app.get('/', async (request, reply) => {
    const { userId } = await requireUser(request);
    reply.header('cache-control', 'no-store');
    return { webhooks: await webhooksOf(context, userId) };
  });

  app.post('/', CREATE_RATE_LIMIT, async (request, reply) => {
    const { userId } = await requireUser(request);
    const input = parseInput(webhookInputSchema, request.body);
    const created = await createWebhook(context, userId, input);
    reply.code(201).header('cache-control', 'no-store');
    return created;
  });

  app.delete('/:id', async (request, reply) => {
    const { userId } = await requireUser(request);
    await removeWebhook(context, userId, webhookIdOf(request.params));
    return reply.code(204).send();
  });

  app.post('/:id/enable', async (request) => {
    const { userId } = await requireUser(request);
    return reenableWebhook(context, userId, webhookIdOf(request.params));
  });

  app.get('/:id/deliveries', async (request, reply) => {
    const { userId } = await requireUser(request);
    const id = webhookIdOf(request.params);
    const page = parsePageQuery(request.query);
    const { deliveries, next } = await deliveriesOf(context, userId, id, page);
    linkNextPage(request, reply, next);
    reply.header('cache-control', 'no-store');
    return { deliveries };
  });
};
