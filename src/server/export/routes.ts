import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { EXPORT_PER_USER, perUserLimit } from '../ai';
import { requireUser } from '../plugins';
import { documentForUser, listDocumentsInFolders } from '../documents';
import { folderWithSubfolders } from '../folders';
import { payloadTooLarge } from '../errors';
import { MAX_FOLDER_EXPORT_DOCUMENTS } from '../../shared/constants';
import { compileBook } from '../compile';
import { bookOptionsSchema } from '../../shared/schemas/compile';
import { BOOK_EXPORT_FORMATS, SERVER_EXPORT_FORMATS } from './formats';
import { parseInput } from '../validation';
import { secondsSince } from '../metrics';
import { imagesForBook } from '../images';
import type { PictureReader } from './service';

const params = z.object({ id: z.uuid('Invalid document id') });
const folderParams = z.object({ id: z.uuid('Invalid folder id') });
const query = z.object({
  format: z.enum(SERVER_EXPORT_FORMATS, {
    error: `format must be one of ${SERVER_EXPORT_FORMATS.join(', ')}`,
  }),
});
const DOCUMENT_FORMATS = [...SERVER_EXPORT_FORMATS, ...BOOK_EXPORT_FORMATS] as const;
const documentQuery = z.object({
  format: z.enum(DOCUMENT_FORMATS, { error: `format must be one of ${DOCUMENT_FORMATS.join(', ')}` }),
});
const isBookFormat = (format: string): format is (typeof BOOK_EXPORT_FORMATS)[number] =>
  (BOOK_EXPORT_FORMATS as readonly string[]).includes(format);

/**
 * GET /api/documents/:id/export?format=md|html|txt|docx|epub|pdf — the same conversions as the editor's Export
 * menu (EPUB and PDF: the document compiled as a book, src/server/compile);
 * GET /api/folders/:id/export?format=… — a folder and its sub-folders as a .zip of such files.
 */
export const exportRoutes: FastifyPluginAsync = async (app) => {
  const exportRate = perUserLimit(app, EXPORT_PER_USER);
  /** A Word file's pictures, read for `userId` by the images' own rule (an image they may not see is left out). */
  const pictureReader =
    (userId: string): PictureReader =>
    async (sources) => {
      const images = await imagesForBook(app.deps, app.imageStore, userId, sources, [
        'image/png',
        'image/jpeg',
        'image/gif',
      ]);
      return new Map(images.map((image) => [image.src, image]));
    };
  app.get('/documents/:id/export', async (request, reply) => {
    const { id } = parseInput(params, request.params);
    const { format } = parseInput(documentQuery, request.query);
    const user = await requireUser(request);
    await exportRate(request, reply, user.userId);
    const document = await documentForUser(app.database, user.userId, id, 'export');
    if (isBookFormat(format)) {
      // EPUB and PDF are books: the document compiled with the default book options.
      const started = performance.now();
      const source = { kind: 'document' as const, title: document.title, content: document.content };
      const file = await compileBook(
        { ...app.deps, imageStore: app.imageStore },
        user.userId,
        source,
        bookOptionsSchema.parse({}),
        format,
      );
      app.deps.metrics.exported(format, secondsSince(started));
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    }
    // Loaded on first use: the converters (a DOM for HTML, DOCX) are a sixth of an idle server's heap.
    const { exportDocument } = await import('./service');
    const started = performance.now();
    const file = await exportDocument(
      document.title,
      document.content,
      format,
      new Date(),
      pictureReader(user.userId),
    );
    app.deps.metrics.exported(format, secondsSince(started));
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(file.body);
  });

  app.get('/folders/:id/export', async (request, reply) => {
    const { id } = parseInput(folderParams, request.params);
    const { format } = parseInput(query, request.query);
    const user = await requireUser(request);
    await exportRate(request, reply, user.userId);
    const tree = await folderWithSubfolders(app.deps, user.userId, id);
    const folderIds = tree.folders.map((folder) => folder.id);
    const documents = await listDocumentsInFolders(
      app.database.db,
      user.userId,
      folderIds,
      MAX_FOLDER_EXPORT_DOCUMENTS + 1,
    );
    if (documents.length > MAX_FOLDER_EXPORT_DOCUMENTS) {
      throw payloadTooLarge(
        `This folder holds more than ${MAX_FOLDER_EXPORT_DOCUMENTS.toLocaleString('en-US')} documents; export its sub-folders one at a time.`,
        'folder_too_large',
      );
    }
    const { folderZip } = await import('./folder-zip');
    const started = performance.now();
    const file = await folderZip({ ...tree, documents }, format, new Date(), pictureReader(user.userId));
    app.deps.metrics.exported(format, secondsSince(started));
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('cache-control', 'no-store')
      .send(file.body);
  });
};
