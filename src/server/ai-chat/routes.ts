import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { notFound } from '../errors';
import { requireUser } from '../plugins';
import { clearConversation, conversationOf } from './service';

/** The document id of a route; anything but a UUID names no document (404, like another writer's). */
export function chatDocumentIdOf(params: unknown): string {
  const parsed = z.object({ documentId: z.uuid() }).safeParse(params);
  if (!parsed.success) throw notFound('Document not found', 'not_found');
  return parsed.data.documentId;
}

/**
 * Mounted at /api/ai/chat: the signed-in writer's conversation about one of their documents.
 * GET /:documentId lists it, DELETE /:documentId clears it. Asking (POST /:documentId) is an AI generation
 * and lives with the other generation routes in ai/routes.ts.
 */
export const aiChatRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.database;

  app.get('/:documentId', async (request, reply) => {
    const { userId } = await requireUser(request);
    const documentId = chatDocumentIdOf(request.params);
    reply.header('cache-control', 'no-store');
    return { messages: await conversationOf(db, userId, documentId) };
  });

  app.delete('/:documentId', async (request, reply) => {
    const { userId } = await requireUser(request);
    const documentId = chatDocumentIdOf(request.params);
    await clearConversation(db, userId, documentId);
    return reply.code(204).send();
  });
};
