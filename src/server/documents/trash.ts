import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import { documentIdSchema } from '../../shared/schemas/documents';
import { trashQuerySchema, type TrashPage } from '../../shared/schemas/trash';
import { listTrashOf } from './repository';

/**
 * The trash API, mounted at /api/trash: the signed-in user's deleted documents, which they may restore or delete
 * for good. Deleting a document (DELETE /api/documents/:id) moves it here; the writer makes every change and
 * announces it. Another user's document, or one not in the trash, answers 404.
 */

const paramsSchema = z.object({ id: documentIdSchema });
/** Like the other writes of whole documents (version history): generous for a writer, a wall for a script. */
const WRITE_RATE_LIMIT = { config: { rateLimit: { max: 120, timeWindow: 60_000 } } };
const DAY_MS = 86_400_000;

/** How often the purge runs after the one at start. */
const PURGE_INTERVAL_MS = DAY_MS;

export const trashRoutes: FastifyPluginAsync = async (app) => {
  const { db, documentWriter: writer, config } = app.deps;
  const retentionDays = config.TRASH_RETENTION_DAYS;

  app.get('/', async (request, reply) => {
    const { userId } = await requireUser(request);
    const { limit, offset } = parseInput(trashQuerySchema, request.query);
    const rows = await listTrashOf(db, userId, limit, offset);
    // Past the end the window count has no row to ride on: ask for the first row only.
    const total = rows[0]?.total ?? (offset > 0 ? ((await listTrashOf(db, userId, 1, 0))[0]?.total ?? 0) : 0);
    const page: TrashPage = {
      total,
      retentionDays,
      documents: rows.map((row) => ({
        id: row.id,
        title: row.title,
        trashedAt: row.trashedAt.toISOString(),
        purgeAt: new Date(row.trashedAt.getTime() + retentionDays * DAY_MS).toISOString(),
      })),
    };
    return reply.header('cache-control', 'private, no-cache').send(page);
  });

  app.post('/:id/restore', WRITE_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(paramsSchema, request.params);
    const { userId } = await requireUser(request);
    await writer.restore(userId, id);
    return reply.status(204).send();
  });

  app.delete('/:id', WRITE_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(paramsSchema, request.params);
    const { userId } = await requireUser(request);
    await writer.deleteForever(userId, id);
    return reply.status(204).send();
  });

  app.delete('/', WRITE_RATE_LIMIT, async (request, reply) => {
    const { userId } = await requireUser(request);
    await writer.deleteForever(userId);
    return reply.status(204).send();
  });
};

/**
 * The purge of documents whose time in the trash is over: once at start, then daily, in-process. Each run is one
 * statement (DocumentWriter.purgeTrash), so several instances running it at once delete each document once.
 */
export function registerTrashPurge(app: FastifyInstance): void {
  const writer = app.deps.documentWriter;
  const log = app.log.child({ module: 'trash' });
  let running: Promise<void> = Promise.resolve();
  const purge = () => {
    running = writer
      .purgeTrash()
      .then((purged) => {
        if (purged > 0) log.info({ purged }, 'purged documents from the trash');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'trash purge failed'));
  };
  purge();
  const timer = setInterval(purge, PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    // The database closes after this hook: let a purge under way finish first.
    await running;
  });
}
