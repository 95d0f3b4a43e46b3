import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authorizeDocument } from '../documents';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import { documentIdSchema } from '../../shared/schemas/documents';
import { folderIdSchema } from '../../shared/schemas/folders';
import { goalQuerySchema, setGoalBodySchema } from '../../shared/schemas/goals';

/**
 * Writing goals. Under /api/documents: `GET /:id/goal?zone=`, `PUT /:id/goal` (the target and deadline; answers
 * like GET) and `DELETE /:id/goal` (204); each writer keeps their own goal on a document they may write, and
 * another user's document answers 404 like a missing one. The same three under /api/folders for the writer's own
 * folders (404 folder_not_found otherwise).
 */

const documentParams = z.object({ id: documentIdSchema });
const folderParams = z.object({ id: folderIdSchema });
const GOAL_RATE_LIMIT = { config: { rateLimit: { max: 240, timeWindow: 60_000 } } };

export const goalRoutes: FastifyPluginAsync = async (app) => {
  const { goals } = app;

  async function authorize(request: FastifyRequest) {
    const { id } = parseInput(documentParams, request.params);
    const { userId } = await requireUser(request);
    await authorizeDocument(app.database, { kind: 'user', userId }, id, 'write');
    return { userId, documentId: id };
  }

  app.get('/:id/goal', async (request, reply) => {
    const { zone } = parseInput(goalQuerySchema, request.query);
    const { userId, documentId } = await authorize(request);
    const goal = await goals.getForDocument(userId, documentId, zone);
    return reply.header('cache-control', 'private, no-cache').send(goal);
  });

  app.put('/:id/goal', GOAL_RATE_LIMIT, async (request, reply) => {
    const body = parseInput(setGoalBodySchema, request.body);
    const { userId, documentId } = await authorize(request);
    await goals.set(userId, { documentId }, { targetWords: body.target_words, deadline: body.deadline });
    return reply.send(await goals.getForDocument(userId, documentId, body.zone));
  });

  app.delete('/:id/goal', GOAL_RATE_LIMIT, async (request, reply) => {
    const { userId, documentId } = await authorize(request);
    await goals.clear(userId, { documentId });
    return reply.status(204).send();
  });
};

export const folderGoalRoutes: FastifyPluginAsync = async (app) => {
  const { goals } = app;

  async function authorize(request: FastifyRequest) {
    const { id } = parseInput(folderParams, request.params);
    const { userId } = await requireUser(request);
    await goals.assertFolder(userId, id);
    return { userId, folderId: id };
  }

  app.get('/:id/goal', async (request, reply) => {
    const { zone } = parseInput(goalQuerySchema, request.query);
    const { userId, folderId } = await authorize(request);
    const goal = await goals.getForFolder(userId, folderId, zone);
    return reply.header('cache-control', 'private, no-cache').send(goal);
  });

  app.put('/:id/goal', GOAL_RATE_LIMIT, async (request, reply) => {
    const body = parseInput(setGoalBodySchema, request.body);
    const { userId, folderId } = await authorize(request);
    await goals.set(userId, { folderId }, { targetWords: body.target_words, deadline: body.deadline });
    return reply.send(await goals.getForFolder(userId, folderId, body.zone));
  });

  app.delete('/:id/goal', GOAL_RATE_LIMIT, async (request, reply) => {
    const { userId, folderId } = await authorize(request);
    await goals.clear(userId, { folderId });
    return reply.status(204).send();
  });
};
