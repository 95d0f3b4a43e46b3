import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { aiCommandInputSchema } from '../../shared/schemas/ai-commands';
import { notFound } from '../errors';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import { addCommand, changeCommand, commandsOf, removeCommand } from './service';

/** The command id of a route; anything but a UUID names no command (404, like another writer's). */
export function commandIdOf(params: unknown): string {
  const parsed = z.object({ id: z.uuid() }).safeParse(params);
  if (!parsed.success) throw notFound('AI command not found', 'ai_command_not_found');
  return parsed.data.id;
}

/**
 * Mounted at /api/ai/commands: the signed-in writer's own commands. Running one is an AI generation and
 * lives with the other generation routes (POST /api/ai/commands/:id/run in ai/routes.ts).
 */
export const aiCommandRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.database;

  app.get('/', async (request, reply) => {
    const { userId } = await requireUser(request);
    reply.header('cache-control', 'no-store');
    return { commands: await commandsOf(db, userId) };
  });

  app.post('/', async (request, reply) => {
    const { userId } = await requireUser(request);
    const input = parseInput(aiCommandInputSchema, request.body);
    reply.code(201);
    return addCommand(db, userId, input);
  });

  app.put('/:id', async (request) => {
    const { userId } = await requireUser(request);
    const id = commandIdOf(request.params);
    const input = parseInput(aiCommandInputSchema, request.body);
    return changeCommand(db, userId, id, input);
  });

  app.delete('/:id', async (request, reply) => {
    const { userId } = await requireUser(request);
    const id = commandIdOf(request.params);
    await removeCommand(db, userId, id);
    return reply.code(204).send();
  });
};
