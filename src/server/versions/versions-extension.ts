import type { Extension, afterStoreDocumentPayload, onChangePayload } from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { CollabContext } from '../collab/authentication-extension';
import { yDocToContent } from '../collab/content';
import type { VersionsService } from './service';

/**
 * The live-editing triggers of version history: who edits (onChange) and the time-based `auto` version after
 * a store. It only reads the live document; versions are written by VersionsService. Listed after the
 * persistence extension, so a version is never newer than what the documents table holds. (The
 * `session_end` version comes from the documents module's onLiveDocumentUnloaded hook.)
 */
export class VersionsExtension implements Extension {
  extensionName = 'QuillwrightVersions';

  constructor(
    private readonly versions: VersionsService,
    private readonly log: FastifyBaseLogger,
  ) {}

  async onChange({ documentName, context }: onChangePayload<CollabContext>) {
    // Changes from the server itself (REST writes, restores) and from other instances carry no connection
    // principal; the REST side records its writer itself.
    const principal = context?.auth?.principal;
    if (!principal) return;
    this.versions.recordLiveEdit(
      documentName,
      principal.kind === 'user' ? { userId: principal.userId } : 'share-link',
    );
  }

  async afterStoreDocument({ documentName, document }: afterStoreDocumentPayload) {
    if (!this.versions.tracker.hasChanges(documentName)) return;
    const content = yDocToContent(document);
    await this.versions
      .afterLiveStore(documentName, content)
      .catch((error: unknown) =>
        this.log.warn({ err: error, documentId: documentName }, 'auto version failed'),
      );
  }
}
