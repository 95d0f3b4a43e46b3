import type { FastifyBaseLogger } from 'fastify';
import type { ServerDependencies } from '../dependencies';
import { IMAGE_EXTENSIONS, type ImageMime } from './process';
import { deleteOrphanedImages } from './repository';
import type { ImageStore } from './storage';

/**
 * Images no longer in any text: removed from a document, they stay stored (and counted against the owner's
 * plan) until a sweep finds that nothing names them any more — no document's content (trashed ones too), no
 * saved version, no template — and deletes the row and the file. A new image is never touched within the
 * grace period: an upload is stored before the text that names it reaches the database (live editing stores
 * every few seconds), and a writer may put back what they just cut.
 */

/** How long an image is left alone after its upload, named or not. */
export const ORPHAN_IMAGE_GRACE_MS = 24 * 60 * 60 * 1000;
/** How often each instance runs a round (only one instance sweeps at a time). */
const ORPHAN_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** The first round waits this long after start, away from the start's own work. */
const FIRST_SWEEP_DELAY_MS = 5 * 60 * 1000;
/** Images looked at per round, least recently checked first, so a round's cost is bounded. */
const ORPHAN_SWEEP_BATCH = 500;

/**
 * One round: deletes the orphaned images among a batch and then their files. A file that cannot be removed is
 * logged (its row is gone, so nobody sees it; it only wastes storage). Returns how many images went, or null
 * when another instance was sweeping.
 */
export async function sweepOrphanedImages(
  deps: Pick<ServerDependencies, 'db'>,
  store: ImageStore,
  log: Pick<FastifyBaseLogger, 'error'>,
  { now = new Date(), batch = ORPHAN_SWEEP_BATCH } = {},
): Promise<number | null> {
  const deleted = await deleteOrphanedImages(deps.db, new Date(now.getTime() - ORPHAN_IMAGE_GRACE_MS), batch);
  if (!deleted) return null;
  for (const image of deleted) {
    const extension = IMAGE_EXTENSIONS[image.mime as ImageMime];
    try {
      if (extension) await store.remove(image.documentId, image.id, extension);
    } catch (error) {
      log.error({ err: error, imageId: image.id }, 'could not remove the file of an orphaned image');
    }
  }
  return deleted.length;
}

/** Runs the sweep every ORPHAN_SWEEP_INTERVAL_MS while the server runs. */
export function scheduleOrphanSweep(
  deps: Pick<ServerDependencies, 'db'>,
  store: ImageStore,
  log: FastifyBaseLogger,
): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = sweepOrphanedImages(deps, store, log)
      .then((count) => {
        if (count) log.info({ count }, 'deleted images no text names any more');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'orphaned-image sweep failed'));
  };
  const first = setTimeout(sweep, FIRST_SWEEP_DELAY_MS).unref();
  const timer = setInterval(sweep, ORPHAN_SWEEP_INTERVAL_MS).unref();
  return async () => {
    clearTimeout(first);
    clearInterval(timer);
    // The database closes after the server's close hooks: a round under way finishes first.
    await running;
  };
}
