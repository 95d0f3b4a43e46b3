import type { FastifyPluginAsync } from 'fastify';

export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/health', async (_request, reply) => {
    try {
      await app.database.ping();
    } catch {
      return reply.status(503).send({ status: 'error', database: app.database.kind });
    }
    return { status: 'ok', database: app.database.kind };
  });
};
