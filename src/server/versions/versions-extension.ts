import type {
  Extension,
  afterStoreDocumentPayload,
  onChangePayload,
  onDisconnectPayload,
} from '@hocuspocus/server';
import type { FastifyBaseLogger } from 'fastify';
import type { CollabContext } from '../collab/authentication-extension';
import { yDocToContent } from '../collab/content';
import type { VersionsService } from './service';

/**
 * The live-editing triggers of version history: who edits (onChange), the time-based `auto` version after a
 * store, and the `session_end` version when the last connection leaves a changed document. It only reads the
 * live document; versions are written by VersionsService. Listed after the persistence extension, so a
 * version is never newer than what the documents table holds.
 */
export class VersionsExtension implements Extension {
  extensionName = 'QuillwrightVersions';

  constructor(
    private readonly versions: VersionsService,
    private readonly documentTitle: (documentId: string) => Promise<string>,
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
      .afterLiveStore(documentName, () => this.documentTitle(documentName), content)
      .catch((error: unknown) =>
        this.log.warn({ err: error, documentId: documentName }, 'auto version failed'),
      );
  }

  async onDisconnect({ documentName, document, clientsCount }: onDisconnectPayload) {
    if (clientsCount > 0 || !this.versions.tracker.hasChanges(documentName)) return;
    // Read before anything is awaited: the document is unloaded right after the last connection leaves.
    const content = yDocToContent(document);
    await this.versions
      .liveSessionEnded(documentName, () => this.documentTitle(documentName), content)
      .catch((error: unknown) =>
        this.log.warn({ err: error, documentId: documentName }, 'session end version failed'),
      );
  }
}
