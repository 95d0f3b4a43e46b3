import type { FastifyInstance } from 'fastify';
import { yDocToContent } from '../collab/content';
import { pruneVersions, RETENTION_SWEEP_INTERVAL_MS } from './retention';
import { VersionsService } from './service';
import { VersionsExtension } from './versions-extension';

declare module 'fastify' {
  interface FastifyInstance {
    /** Version history (src/server/versions/); tests replace `versions.clock`. */
    versions: VersionsService;
  }
}

/**
 * Version history's wiring: the service, its collaboration extension, the documents module's hooks (a version
 * before a REST replacement when one is due, `session_end` when a changed live document is left, REST
 * writers as authors, deleted documents forgotten), and the hourly retention sweep. Call from buildApp before
 * registerCollaboration, which takes the extensions in app.collabExtensions.
 */
export function registerVersions(app: FastifyInstance): void {
  const { db } = app.database;
  const log = app.log.child({ module: 'versions' });
  const versions = new VersionsService({
    db,
    documents: app.deps,
    liveContent: (documentId) => {
      const live = app.hocuspocus.documents.get(documentId);
      return live ? yDocToContent(live) : undefined;
    },
    log,
  });
  app.decorate('versions', versions);
  app.collabExtensions.push(new VersionsExtension(versions, log));
  app.documentHooks.push({
    onBeforeContentReplaced: ({ documentId }) => versions.beforeRestReplace(documentId),
    onLiveDocumentUnloaded: ({ documentId }) => versions.liveSessionEnded(documentId),
    onContentReplaced: ({ documentId, userId }) => versions.recordRestEdit(documentId, userId),
    onDeleted: ({ documentId }) => versions.documentDeleted(documentId),
  });

  const sweep = setInterval(() => {
    pruneVersions(db, versions.clock.now()).catch((error: unknown) =>
      log.warn({ err: error }, 'version retention sweep failed'),
    );
  }, RETENTION_SWEEP_INTERVAL_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
}
