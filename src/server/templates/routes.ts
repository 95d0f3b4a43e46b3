import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { TEMPLATE_WRITES_PER_MINUTE } from '../../shared/constants';
import { saveTemplateBodySchema, useTemplateBodySchema } from '../../shared/schemas/templates';
import { etagOf, presentDocument } from '../documents';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import { createFromTemplate, removeTemplate, saveAsTemplate, templatesOf } from './service';

/**
 * Mounted at /api/templates: the built-in templates and the signed-in writer's own (another writer's answers
 * 404), saving a document as a template, and `POST /:id/documents`, a new document made from one.
 */

// A built-in template's slug or a UUID; anything longer names nothing.
const paramsSchema = z.object({ id: z.string().max(64) });
const WRITE_RATE_LIMIT = { config: { rateLimit: { max: TEMPLATE_WRITES_PER_MINUTE, timeWindow: 60_000 } } };

export const templateRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.deps;

  app.get('/', async (request, reply) => {
    const { userId } = await requireUser(request);
    return reply.header('cache-control', 'private, no-cache').send(await templatesOf(ctx, userId));
  });

  app.post('/', WRITE_RATE_LIMIT, async (request, reply) => {
    const body = parseInput(saveTemplateBodySchema, request.body);
    const { userId } = await requireUser(request);
    return reply.status(201).send(await saveAsTemplate(ctx, userId, body));
  });

  app.delete('/:id', WRITE_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(paramsSchema, request.params);
    const { userId } = await requireUser(request);
    await removeTemplate(ctx, userId, id);
    return reply.status(204).send();
  });

  app.post('/:id/documents', WRITE_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(paramsSchema, request.params);
    const body = parseInput(useTemplateBodySchema, request.body);
    const { userId } = await requireUser(request);
    const document = await createFromTemplate(ctx, userId, id, body);
    return reply.status(201).header('etag', etagOf(document.version)).send(presentDocument(document));
  });
};
