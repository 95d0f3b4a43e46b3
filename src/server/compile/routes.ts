import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod';
import { EXPORT_PER_USER, perUserLimit } from '../ai';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import { secondsSince } from '../metrics';
import { compileBodySchema } from '../../shared/schemas/compile';
import type { BookFile } from './service';

const documentParams = z.object({ id: z.uuid('Invalid document id') });
const folderParams = z.object({ id: z.uuid('Invalid folder id') });

function sendFile(reply: FastifyReply, file: BookFile) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .send(file.body);
}

/**
 * GET /api/documents/:id/compile, GET /api/folders/:id/compile — the book's outline (its chapters, for the
 * dialog); POST to the same addresses with the book's options and a format — the compiled file. A document
 * or folder the caller may not export answers 404. Rate-limited with the exports.
 */
export const compileRoutes: FastifyPluginAsync = async (app) => {
  const exportRate = perUserLimit(app, EXPORT_PER_USER);
  // The service (and through it the documents, folders and images code it calls) loads on first use.
  const service = () => import('./service');

  app.get('/documents/:id/compile', async (request) => {
    const { id } = parseInput(documentParams, request.params);
    const user = await requireUser(request);
    const { documentBookSource, outlineOf } = await service();
    return outlineOf(await documentBookSource(app.deps, user.userId, id));
  });

  app.get('/folders/:id/compile', async (request) => {
    const { id } = parseInput(folderParams, request.params);
    const user = await requireUser(request);
    const { folderBookSource, outlineOf } = await service();
    return outlineOf(await folderBookSource(app.deps, user.userId, id));
  });

  app.post('/documents/:id/compile', async (request, reply) => {
    const { id } = parseInput(documentParams, request.params);
    const { format, ...options } = parseInput(compileBodySchema, request.body);
    const user = await requireUser(request);
    await exportRate(request, reply, user.userId);
    const { compileBook, documentBookSource } = await service();
    const source = await documentBookSource(app.deps, user.userId, id);
    const started = performance.now();
    const file = await compileBook(
      { ...app.deps, imageStore: app.imageStore },
      user.userId,
      source,
      options,
      format,
    );
    app.deps.metrics.exported(format, secondsSince(started));
    return sendFile(reply, file);
  });

  app.post('/folders/:id/compile', async (request, reply) => {
    const { id } = parseInput(folderParams, request.params);
    const { format, ...options } = parseInput(compileBodySchema, request.body);
    const user = await requireUser(request);
    await exportRate(request, reply, user.userId);
    const { compileBook, folderBookSource } = await service();
    const source = await folderBookSource(app.deps, user.userId, id);
    const started = performance.now();
    const file = await compileBook(
      { ...app.deps, imageStore: app.imageStore },
      user.userId,
      source,
      options,
      format,
    );
    app.deps.metrics.exported(format, secondsSince(started));
    return sendFile(reply, file);
  });
};
