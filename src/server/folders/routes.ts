import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import { documentIdSchema } from '../../shared/schemas/documents';
import {
  createFolderBodySchema,
  folderIdSchema,
  placeDocumentBodySchema,
  updateFolderBodySchema,
} from '../../shared/schemas/folders';
import { purgeExpiredFolders } from './repository';
import {
  createFolder,
  deleteFolderForever,
  documentPlacement,
  folderTree,
  placeDocument,
  restoreFolder,
  trashFolder,
  trashedFolders,
  updateFolderOf,
  type FoldersContext,
} from './service';

/**
 * Folders: `/api/folders` (the tree, create, rename, move, delete), `/api/documents/:id/folder` (which folder a
 * document sits in, moving and reordering it) and `/api/trash/folders` (deleted folders). Another user's folder
 * or document answers 404.
 */

const folderParams = z.object({ id: folderIdSchema });
const documentParams = z.object({ id: documentIdSchema });
/** Like the other writes of whole documents: generous for a writer dragging things about, a wall for a script. */
const WRITE_RATE_LIMIT = { config: { rateLimit: { max: 240, timeWindow: 60_000 } } };

const contextOf = (app: FastifyInstance): FoldersContext => app.deps;

export const folderRoutes: FastifyPluginAsync = async (app) => {
  const ctx = contextOf(app);

  app.get('/', async (request, reply) => {
    const { userId } = await requireUser(request);
    return reply.header('cache-control', 'private, no-cache').send(await folderTree(ctx, userId));
  });

  app.post('/', WRITE_RATE_LIMIT, async (request, reply) => {
    const body = parseInput(createFolderBodySchema, request.body);
    const { userId } = await requireUser(request);
    return reply.status(201).send(await createFolder(ctx, userId, body));
  });

  app.patch('/:id', WRITE_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(folderParams, request.params);
    const body = parseInput(updateFolderBodySchema, request.body);
    const { userId } = await requireUser(request);
    return reply.send(await updateFolderOf(ctx, userId, id, body));
  });

  // Deleting moves the folder, its sub-folders and their documents to the trash together.
  app.delete('/:id', WRITE_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(folderParams, request.params);
    const { userId } = await requireUser(request);
    await trashFolder(ctx, userId, id);
    return reply.status(204).send();
  });
};

/** Mounted at /api/documents beside the documents' own routes. */
export const documentFolderRoutes: FastifyPluginAsync = async (app) => {
  const ctx = contextOf(app);

  app.get('/:id/folder', async (request, reply) => {
    const { id } = parseInput(documentParams, request.params);
    const { userId } = await requireUser(request);
    return reply.header('cache-control', 'private, no-cache').send(await documentPlacement(ctx, userId, id));
  });

  app.put('/:id/folder', WRITE_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(documentParams, request.params);
    const body = parseInput(placeDocumentBodySchema, request.body);
    const { userId } = await requireUser(request);
    return reply.send(await placeDocument(ctx, userId, id, body));
  });
};

/** Mounted at /api/trash/folders: deleted folders, restored with what they held or deleted for good. */
export const folderTrashRoutes: FastifyPluginAsync = async (app) => {
  const ctx = contextOf(app);
  const retentionDays = app.deps.config.TRASH_RETENTION_DAYS;

  app.get('/', async (request, reply) => {
    const { userId } = await requireUser(request);
    const folders = await trashedFolders(ctx, userId, retentionDays);
    return reply.header('cache-control', 'private, no-cache').send({ folders });
  });

  app.post('/:id/restore', WRITE_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(folderParams, request.params);
    const { userId } = await requireUser(request);
    await restoreFolder(ctx, userId, id);
    return reply.status(204).send();
  });

  app.delete('/:id', WRITE_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(folderParams, request.params);
    const { userId } = await requireUser(request);
    await deleteFolderForever(ctx, userId, id);
    return reply.status(204).send();
  });

  app.delete('/', WRITE_RATE_LIMIT, async (request, reply) => {
    const { userId } = await requireUser(request);
    await deleteFolderForever(ctx, userId, undefined);
    return reply.status(204).send();
  });
};

/**
 * The purge of folders whose time in the trash is over, beside the documents' (which takes the documents
 * that went with them, trashed at the same moment): once at start, then daily.
 */
export function registerFolderTrashPurge(app: FastifyInstance): void {
  const { db, config } = app.deps;
  const log = app.log.child({ module: 'folders' });
  let running: Promise<void> = Promise.resolve();
  const purge = () => {
    running = purgeExpiredFolders(db, config.TRASH_RETENTION_DAYS)
      .then((purged) => {
        if (purged > 0) log.info({ purged }, 'purged folders from the trash');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'folder trash purge failed'));
  };
  purge();
  const timer = setInterval(purge, 86_400_000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
