import type { FastifyPluginAsync } from 'fastify';
import { assertFolderOf } from '../folders';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import { SEARCHES_PER_MINUTE } from '../../shared/constants';
import { libraryQuerySchema, searchQuerySchema } from '../../shared/schemas/search';
import { library, search } from './search-service';

/**
 * `GET /api/search?q=&limit=&folderId=`: the caller's documents (in a folder and its sub-folders) matching the query, best first, with highlighted
 * snippets. `GET /api/search/documents?sort=&limit=&offset=`: the dashboard's sorted, paged list with
 * each document's opening text. Both only ever read the caller's own documents.
 */
export const searchRoutes: FastifyPluginAsync = async (app) => {
  const exec = app.database.exec;

  app.get(
    '/',
    { config: { rateLimit: { max: SEARCHES_PER_MINUTE, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const { userId } = await requireUser(request);
      const { q, limit, folderId } = parseInput(searchQuerySchema, request.query);
      if (folderId) await assertFolderOf(app.deps, userId, folderId);
      return reply
        .header('cache-control', 'private, no-store')
        .send(await search(exec, userId, q, limit, folderId));
    },
  );

  app.get('/documents', async (request, reply) => {
    const { userId } = await requireUser(request);
    const query = parseInput(libraryQuerySchema, request.query);
    if (query.folderId) await assertFolderOf(app.deps, userId, query.folderId);
    return reply.header('cache-control', 'private, no-cache').send(await library(exec, userId, query));
  });
};
