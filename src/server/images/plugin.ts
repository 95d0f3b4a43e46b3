import type { FastifyInstance } from 'fastify';
import { ImageFiles } from './storage';

/**
 * A document deleted for good (by its owner from the trash, by the purge, with its folder) takes its
 * images' files with it; the rows went with the document (on delete cascade).
 */
export function registerImageCleanup(app: FastifyInstance): void {
  const files = new ImageFiles(app.config.DATA_DIR);
  app.deps.documentEvents.on('deleted', async ({ documentId }) => {
    try {
      await files.removeDocument(documentId);
    } catch (error) {
      // The document is gone either way; a folder left behind wastes disk but shows nothing to anyone.
      app.log.error({ err: error, documentId }, 'could not remove the images of a deleted document');
    }
  });
}
