import type { FastifyInstance } from 'fastify';
import { yDocToContent } from '../collab';
import { SHARE_LINK_EDITOR } from './attribution';
import { GoalsService } from './service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Writing goals (src/server/goals/); tests replace `goals.clock`. */
    goals: GoalsService;
  }
}

/**
 * Writing goals' wiring: words written are counted from the documents event stream (who edited live, each
 * store, REST changes), so no other feature calls in here.
 */
export function registerGoals(app: FastifyInstance): void {
  const events = app.deps.documentEvents;
  const log = app.log.child({ module: 'goals' });
  const goals = new GoalsService({
    db: app.database.db,
    liveContent: (documentId) => {
      const live = app.hocuspocus.documents.get(documentId);
      return live ? yDocToContent(live) : undefined;
    },
    log,
  });
  app.decorate('goals', goals);
  events.on('live.edited', ({ documentId, editor }) =>
    goals.liveEdited(documentId, editor === 'share-link' ? SHARE_LINK_EDITOR : editor.userId),
  );
  events.on('content.replacing', ({ documentId }) => goals.beforeReplace(documentId));
  events.on('content.changed', (event) =>
    goals
      .contentChanged(event)
      .catch((error: unknown) =>
        log.warn({ err: error, documentId: event.documentId }, 'counting words failed'),
      ),
  );
  events.on('unloaded', ({ documentId }) => goals.forget(documentId));
  events.on('deleted', ({ documentId }) => goals.forget(documentId));
}
