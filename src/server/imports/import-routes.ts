import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ConvertedFile, ImportResponse } from '../../shared/schemas/imports';
import { documentsContextOf, presentDocument } from '../documents';
import { AppError, badRequest } from '../errors';
import { requireUser } from '../plugins';
import { perUserLimit } from '../ai';
import { IMPORTS_PER_ADDRESS_PER_MINUTE, IMPORTS_PER_USER_PER_MINUTE } from './import-limits';
import { storeImage } from '../images';
import { convertFile, createImportedDocument, importFormatOf, type PictureStore } from './import-service';

/**
 * `POST /api/documents/import`: multipart with one `file` part → 201 the new document plus `degraded`
 * (what changed to fit the editor). One file per request: a client importing several files sends one
 * request each, so each gets its own answer and one bad file does not sink the others.
 */
export const importRoutes: FastifyPluginAsync = async (app) => {
  await app.register(multipart, {
    limits: { fileSize: app.config.MAX_BODY_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 100 },
  });

  /** The one `file` part of a multipart request, read into memory after its type is checked. */
  async function readFile(request: FastifyRequest): Promise<{ name: string; bytes: Buffer }> {
    if (!request.isMultipart()) {
      throw new AppError(
        415,
        'unsupported_media_type',
        'Send the file as multipart/form-data in a field named "file".',
      );
    }
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw badRequest('Send the file in a field named "file".');
    // Refuse an unsupported type before reading the bytes.
    importFormatOf(part.filename);
    return { name: part.filename, bytes: await part.toBuffer() };
  }

  // Per address before the body is read, and per writer once signed in: one account changing addresses is
  // still held to its own budget.
  const rateLimit = {
    config: { rateLimit: { max: IMPORTS_PER_ADDRESS_PER_MINUTE, timeWindow: '1 minute' } },
  };
  const userRate = perUserLimit(app, {
    bucket: 'import',
    max: IMPORTS_PER_USER_PER_MINUTE,
    windowMs: 60_000,
  });

  /** A picture of an imported file, stored as an upload by the importing writer would be; null when refused. */
  const storePicture =
    (userId: string): PictureStore =>
    async (documentId, bytes) => {
      try {
        return (await storeImage(app.deps, app.imageStore, userId, documentId, bytes)).src;
      } catch (error) {
        // Refused (not an image, too large, past the plan's storage) is the writer's business and reported to
        // them; anything else (the store unreachable) is ours, and logged, but the import still goes on.
        if (!(error instanceof AppError) || error.status >= 500) {
          app.log.error({ err: error, documentId }, 'could not store a picture of an imported file');
        }
        return null;
      }
    };

  app.post('/', rateLimit, async (request, reply) => {
    const { userId } = await requireUser(request);
    await userRate(request, reply, userId);
    const file = await readFile(request);
    const imported = await convertFile(file.name, file.bytes, {
      owner: userId,
      pictures: true,
      metrics: app.deps.metrics,
    });
    const { document, degraded } = await createImportedDocument(
      documentsContextOf(app),
      userId,
      imported,
      storePicture(userId),
    );
    const body: ImportResponse = { ...presentDocument(document), degraded };
    return reply.status(201).send(body);
  });

  /**
   * `POST /api/documents/import/convert`: the same conversion without creating a document → 200
   * `{ title, content, degraded }` (the editor inserts it at the drop point, so an opening heading stays).
   */
  app.post('/convert', rateLimit, async (request, reply) => {
    const { userId } = await requireUser(request);
    await userRate(request, reply, userId);
    const file = await readFile(request);
    const { title, content, degraded } = await convertFile(file.name, file.bytes, {
      owner: userId,
      whole: true,
      metrics: app.deps.metrics,
    });
    const converted: ConvertedFile = { title, content, degraded };
    return reply.header('cache-control', 'no-store').send(converted);
  });
};
