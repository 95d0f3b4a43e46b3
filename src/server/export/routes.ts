import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { EXPORT_PER_USER, perUserLimit } from '../ai';
import { requireUser } from '../plugins';
import { documentForUser } from '../documents';
import { SERVER_EXPORT_FORMATS } from './formats';
import { parseInput } from '../validation';
import { secondsSince } from '../metrics';

const params = z.object({ id: z.uuid('Invalid document id') });
const query = z.object({
  format: z.enum(SERVER_EXPORT_FORMATS, {
    error: `format must be one of ${SERVER_EXPORT_FORMATS.join(', ')}`,
  }),
});

/** GET /api/documents/:id/export?format=md|html|txt|docx — the same conversions as the editor's Export menu. */
export const exportRoutes: FastifyPluginAsync = async (app) => {
  const exportRate = perUserLimit(app, EXPORT_PER_USER);
  app.get('/documents/:id/export', async (request, reply) => {
    const { id } = parseInput(params, request.params);
    const { format } = parseInput(query, request.query);
    const user = await requireUser(request);
    await exportRate(request, reply, user.userId);
    const document = await documentForUser(app.database, user.userId, id, 'export');
    // Loaded on first use: the converters (a DOM for HTML, DOCX) are a sixth of an idle server's heap.
    const { exportDocument } = await import('./service');
    const started = performance.now();
    const file = await exportDocument(document.title, document.content, format);
    app.deps.metrics.exported(format, secondsSince(started));
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(file.body);
  });
};
