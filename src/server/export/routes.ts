import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../plugins/auth';
import { getDocument } from '../documents/service';
import { exportDocument, SERVER_EXPORT_FORMATS } from './service';
import { parseInput } from '../validation';

const params = z.object({ id: z.uuid('Invalid document id') });
const query = z.object({
  format: z.enum(SERVER_EXPORT_FORMATS, {
    error: `format must be one of ${SERVER_EXPORT_FORMATS.join(', ')}`,
  }),
});

/** GET /api/documents/:id/export?format=md|html|txt|docx — the same conversions as the editor's Export menu. */
export const exportRoutes: FastifyPluginAsync = async (app) => {
  app.get('/documents/:id/export', async (request, reply) => {
    const { id } = parseInput(params, request.params);
    const { format } = parseInput(query, request.query);
    const user = await requireUser(request);
    const document = await getDocument({ db: app.database.db, config: app.config }, user.userId, id);
    const file = await exportDocument(document.title, document.content, format);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(file.body);
  });
};
