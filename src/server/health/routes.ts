import type { FastifyPluginAsync } from 'fastify';
import { APP_VERSION } from '../runtime/version';

export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/health', async (_request, reply) => {
    const base = { version: APP_VERSION, database: app.database.kind };
    // Stopping: a load balancer sees 503 and sends new requests elsewhere while these finish.
    if (app.lifecycle.draining) return reply.status(503).send({ status: 'draining', ...base });
    try {
      await app.database.ping();
    } catch {
      return reply.status(503).send({ status: 'error', ...base });
    }
    return { status: 'ok', ...base };
  });
};
