import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import { documentIdSchema, type PinState } from '../../shared/schemas/documents';
import { authorizeDocument } from './access';
import { deletePin, insertPin, isPinned } from './pins-repository';

/**
 * Pinning, mounted at /api/documents: `GET /:id/pin` (`{ pinned }`), `PUT /:id/pin` and `DELETE /:id/pin`, both
 * idempotent (204). Each user
 * pins for themselves any document they may read; another user's document answers 404 like a missing one.
 * The dashboard's list carries `pinned` and shows pinned documents first (search-repository.ts listLibrary).
 */

const paramsSchema = z.object({ id: documentIdSchema });
const PIN_RATE_LIMIT = { config: { rateLimit: { max: 240, timeWindow: 60_000 } } };

export const pinRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;

  app.get('/:id/pin', async (request, reply) => {
    const { id } = parseInput(paramsSchema, request.params);
    const { userId } = await requireUser(request);
    await authorizeDocument({ db }, { kind: 'user', userId }, id, 'read');
    const state: PinState = { pinned: await isPinned(db, userId, id) };
    return reply.header('cache-control', 'private, no-cache').send(state);
  });

  app.put('/:id/pin', PIN_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(paramsSchema, request.params);
    const { userId } = await requireUser(request);
    await authorizeDocument({ db }, { kind: 'user', userId }, id, 'read');
    await insertPin(db, userId, id);
    return reply.status(204).send();
  });

  app.delete('/:id/pin', PIN_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(paramsSchema, request.params);
    const { userId } = await requireUser(request);
    await authorizeDocument({ db }, { kind: 'user', userId }, id, 'read');
    await deletePin(db, userId, id);
    return reply.status(204).send();
  });
};
