import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  IMAGE_ACCESS_PARAM,
  IMAGE_UPLOADS_PER_ADDRESS_PER_MINUTE,
  IMAGE_UPLOADS_PER_USER_PER_MINUTE,
  MAX_IMAGE_UPLOAD_BYTES,
} from '../../shared/constants';
import { perUserLimit } from '../ai';
import { AppError, badRequest } from '../errors';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import {
  imageAccessFor,
  imageTooLarge,
  openImage,
  uploadImage,
  type ImageRequester,
  type ImagesContext,
} from './service';

/**
 * `POST /api/documents/:id/images` (multipart, one `file` part) → 201 the stored image;
 * `GET /api/documents/:id/images/:imageId` → the image's bytes; `GET /api/documents/:id/image-access` → the
 * token an <img> of the document adds to its address (docs/images.md). A share-link visitor sends their share
 * token in `X-Share-Token`, as on the shared page's other requests.
 */

const documentParams = z.object({ id: z.uuid('Invalid document id') });
const imageParams = z.object({ id: z.string(), imageId: z.string() });

function shareTokenOf(request: FastifyRequest): string | undefined {
  const value = request.headers['x-share-token'];
  return typeof value === 'string' && value ? value : undefined;
}

/** Who asks: the share token wins over nothing, a session over a share token (the owner on the shared page). */
async function requesterOf(request: FastifyRequest): Promise<Exclude<ImageRequester, { kind: 'access' }>> {
  const shareToken = shareTokenOf(request);
  if (shareToken && !request.headers.authorization) return { kind: 'share', token: shareToken };
  const { userId, sessionId } = await requireUser(request);
  return { kind: 'user', userId, sessionId };
}

export const imageRoutes: FastifyPluginAsync = async (app) => {
  await app.register(multipart, {
    limits: { fileSize: MAX_IMAGE_UPLOAD_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 100 },
  });
  const ctx: ImagesContext = { ...app.deps, files: app.imageStore };
  const userRate = perUserLimit(app, {
    bucket: 'image-upload',
    max: IMAGE_UPLOADS_PER_USER_PER_MINUTE,
    windowMs: 60_000,
  });

  async function readImage(request: FastifyRequest): Promise<Buffer> {
    if (!request.isMultipart()) {
      throw new AppError(
        415,
        'unsupported_media_type',
        'Send the image as multipart/form-data in a field named "file".',
      );
    }
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw badRequest('Send the image in a field named "file".');
    try {
      return await part.toBuffer();
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 413) throw imageTooLarge();
      throw error;
    }
  }

  app.post(
    '/documents/:id/images',
    { config: { rateLimit: { max: IMAGE_UPLOADS_PER_ADDRESS_PER_MINUTE, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const { id } = parseInput(documentParams, request.params);
      const requester = await requesterOf(request);
      const uploader = requester.kind === 'user' ? requester.userId : null;
      // A visitor has no account: their budget is their address's (the route's limit above).
      if (uploader) await userRate(request, reply, uploader);
      const bytes = await readImage(request);
      const image = await uploadImage(ctx, requester, id, uploader, bytes);
      return reply.status(201).send(image);
    },
  );

  app.get('/documents/:id/image-access', async (request, reply) => {
    const { id } = parseInput(documentParams, request.params);
    const requester = await requesterOf(request);
    reply.header('cache-control', 'no-store');
    return imageAccessFor(ctx, requester, id);
  });

  app.get('/documents/:id/images/:imageId', async (request, reply) => {
    const { id, imageId } = parseInput(imageParams, request.params);
    const query = request.query as Record<string, unknown>;
    const accessToken = query[IMAGE_ACCESS_PARAM];
    const requester: ImageRequester =
      typeof accessToken === 'string' && accessToken && !request.headers.authorization
        ? { kind: 'access', token: accessToken }
        : await requesterOf(request);
    const image = await openImage(ctx, requester, id, imageId);
    return reply
      .header('content-type', image.mime)
      .header('content-length', String(image.size))
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', `inline; filename="${image.filename}"`)
      .header('cache-control', 'private, max-age=31536000, immutable')
      .send(image.stream);
  });
};
