import type { FastifyInstance } from 'fastify';
import { yDocToContent } from '../collab';
import { pruneVersions, RETENTION_SWEEP_INTERVAL_MS } from './retention';
import { VersionsService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Version history (src/server/versions/); tests replace `versions.clock`. */
    versions: VersionsService;
  }
}

/**
 * Version history's wiring: the service, its subscriptions to the documents event stream (a version before the
 * writer replaces content when one is due, live editors and writers as authors, an `auto` version after a live
 * store when one is due, `session_end` when a changed live document is left, deleted documents forgotten), and
 * the hourly retention sweep.
 */
export function registerVersions(app: FastifyInstance): void {
  const { db } = app.database;
  const events = app.deps.documentEvents;
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
  events.on('content.replacing', ({ documentId }) => versions.beforeRestReplace(documentId));
  events.on('live.edited', ({ documentId, editor }) => versions.recordLiveEdit(documentId, editor));
  events.on('content.changed', async ({ documentId, userId, live }) => {
    if (userId) versions.recordRestEdit(documentId, userId);
    // Stored from the live document: never newer than what the documents table holds.
    if (live) {
      await versions
        .afterLiveStore(documentId, live)
        .catch((error: unknown) => log.warn({ err: error, documentId }, 'auto version failed'));
    }
  });
  events.on('unloaded', ({ documentId }) => versions.liveSessionEnded(documentId));
  events.on('deleted', ({ documentId }) => versions.documentDeleted(documentId));

  const sweep = setInterval(() => {
    pruneVersions(db, versions.clock.now()).catch((error: unknown) =>
      log.warn({ err: error }, 'version retention sweep failed'),
    );
  }, RETENTION_SWEEP_INTERVAL_MS);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
}
