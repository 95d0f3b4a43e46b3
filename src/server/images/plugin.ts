import type { FastifyInstance } from 'fastify';
import { scheduleOrphanSweep } from './orphans';
import { createImageStore, type ImageStore } from './storage';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where image bytes live: DATA_DIR/images or an S3-compatible bucket (images/storage.ts). */
    imageStore: ImageStore;
  }
}

/**
 * The images' store, one per server, and its upkeep: a document deleted for good (by its owner from the
 * trash, by the purge, with its folder) takes its images with it; the rows went with the document (on delete
 * cascade). Images no text names any more are deleted by a periodic sweep (orphans.ts).
 */
export function registerImages(app: FastifyInstance): void {
  const store = createImageStore(app.config);
  app.decorate('imageStore', store);
  const stopSweep = scheduleOrphanSweep(app.deps, store, app.log.child({ module: 'images' }));
  app.addHook('onClose', async () => {
    await stopSweep();
    await store.close();
  });
  app.deps.documentEvents.on('deleted', async ({ documentId }) => {
    try {
      await store.removeDocument(documentId);
    } catch (error) {
      // The document is gone either way; images left behind waste storage but show nothing to anyone.
      app.log.error({ err: error, documentId }, 'could not remove the images of a deleted document');
    }
  });
}
