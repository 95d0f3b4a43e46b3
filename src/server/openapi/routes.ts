import type { FastifyPluginAsync } from 'fastify';
import { openApiJson } from './document';

/** `GET /api/openapi.json`: the OpenAPI 3.1 document of this server's REST API (public, like the code it describes). */
export const openApiRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(openApiJson()),
  );
};
