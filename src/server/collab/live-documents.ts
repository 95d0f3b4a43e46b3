import type { Hocuspocus } from '@hocuspocus/server';
import type { JSONContent } from '@tiptap/core';
import type { Redis } from '@hocuspocus/extension-redis';
import * as Y from 'yjs';
import { encodeStatelessMessage } from '../../shared/editor/collab-protocol';
import type { AuthenticationExtension } from './authentication-extension';
import { notFound } from '../errors';
import { parseDocumentContent, replaceYDocContent, yDocToContent } from './content';
import type { StoreContext } from './persistence-extension';

/**
 * What the REST side tells the collaboration side (`app.liveDocuments`). The documents service calls
 * these after its own database write; see docs/collaboration.md "REST writes while a document is live".
 */
export class LiveDocuments {
  constructor(
    private readonly hocuspocus: Hocuspocus,
    private readonly authentication: AuthenticationExtension,
    private readonly redis: Redis | undefined,
  ) {}

  /** Whether this instance holds the document in memory right now. */
  isLoaded(documentId: string): boolean {
    const { documents, loadingDocuments, unloadingDocuments } = this.hocuspocus;
    return (
      documents.has(documentId) || loadingDocuments.has(documentId) || unloadingDocuments.has(documentId)
    );
  }

  /**
   * The body of the document as it is live on this instance right now (it may be newer than the stored
   * JSON, which follows after the store debounce), or undefined when it is not open here.
   */
  currentContent(documentId: string): JSONContent | undefined {
    const document = this.hocuspocus.documents.get(documentId);
    return document ? yDocToContent(document) : undefined;
  }

  /**
   * Makes the document's body equal to `content` through Yjs, so connected editors (on any instance,
   * with Redis) see it at once and the next store cannot bring the old text back: the document is opened
   * server-side (reusing the live one), changed with the smallest diff, and stored before this resolves.
   *
   * Called by the documents service after it committed `content` and cleared ydoc_state
   * (app.documentHooks); `version` is the version that write produced, which the store that follows keeps
   * (see PersistenceExtension). A document that is not live here (and, without Redis, nowhere) needs
   * nothing: its next load builds the Yjs state from the new JSON.
   */
  async replaceContent(
    documentId: string,
    content: unknown,
    options: { version?: number } = {},
  ): Promise<void> {
    if (!this.redis && !this.isLoaded(documentId)) return;
    const node = parseDocumentContent(content);
    let connection;
    try {
      connection = await this.hocuspocus.openDirectConnection(documentId, {
        restVersion: options.version,
      } satisfies StoreContext);
    } catch (error) {
      // Loading refuses a missing document with a close reason, not an Error.
      if (error instanceof Error) throw error;
      throw notFound('Document not found');
    }
    try {
      await connection.transact((document) => replaceYDocContent(document, node));
    } finally {
      await connection.disconnect();
    }
  }

  /**
   * The Yjs state of the document as it is live on this instance right now (everything an editor needs to
   * start from), or undefined when it is not open here.
   */
  currentState(documentId: string): Uint8Array | undefined {
    const document = this.hocuspocus.documents.get(documentId);
    return document ? Y.encodeStateAsUpdate(document) : undefined;
  }

  /** Whether currentState would answer for the document: a cheap check, made before encoding a whole book. */
  hasCurrentState(documentId: string): boolean {
    return this.hocuspocus.documents.has(documentId);
  }

  /** Tells every client of the document, on every instance, that its title changed (PATCH title). */
  async titleChanged(documentId: string, title: string): Promise<void> {
    const payload = encodeStatelessMessage({ type: 'title', title });
    const document = this.hocuspocus.documents.get(documentId);
    if (document) {
      // Relayed to the other instances by the Redis extension's beforeBroadcastStateless.
      document.broadcastStateless(payload);
      return;
    }
    if (this.redis) {
      // Not open here, maybe on another instance: publish on the document's channel directly.
      await this.redis.beforeBroadcastStateless({
        documentName: documentId,
        payload,
        document: undefined as never,
      });
    }
  }

  /**
   * Re-decides access for every connection of the document now (share settings changed, document
   * deleted, owner changed) and closes those that lost it. Other instances catch up on their next re-check.
   */
  async accessChanged(documentId: string): Promise<void> {
    await this.authentication.revalidateDocument(this.hocuspocus, documentId);
  }
}
