import type { Hocuspocus } from '@hocuspocus/server';
import type { JSONContent } from '@tiptap/core';
import type { Redis } from '@hocuspocus/extension-redis';
import * as Y from 'yjs';
import { encodeStatelessMessage } from '../../shared/editor/collab-protocol';
import type { AuthenticationExtension } from './authentication-extension';
import { notFound } from '../errors';
import type { ContentChange, LiveDocumentWrites, LiveStoreResult, LiveWrite } from '../documents';
import { repairRichText } from '../../shared/editor/validate';
import type { RichTextDoc } from '../../shared/schemas/richText';
import { contentToNode, replaceYDocContent, yDocToContent } from './content';
import type { PersistenceExtension, WriterContext } from './persistence-extension';

/**
 * The collaboration side of the rest of the server (`app.liveDocuments`): the document writer changes live
 * documents through it, and the documents event stream's subscribers (collab-plugin.ts) reach connected
 * editors through it. See docs/collaboration.md "REST writes while a document is live".
 */
export class LiveDocuments implements LiveDocumentWrites {
  constructor(
    private readonly hocuspocus: Hocuspocus,
    private readonly authentication: AuthenticationExtension,
    private readonly persistence: PersistenceExtension,
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

  /** Whether the document writer must change the document through its Y.Doc (see DocumentWriter). */
  mustWriteThroughLive(documentId: string): boolean {
    // With Redis the document may be live on another instance: opening it here syncs it with that one first.
    return this.redis !== undefined || this.isLoaded(documentId);
  }

  /**
   * The document writer's change of a live document: makes its body equal to `write.content` through Yjs, so
   * connected editors (on any instance, with Redis) see it at once and the next store cannot bring the old
   * text back. The document is opened server-side (reusing the live one) and changed with the smallest diff;
   * resolves with what the store that follows wrote (the store is made at once, with the title if any).
   */
  async write(documentId: string, write: LiveWrite): Promise<LiveStoreResult> {
    // Already validated by the writer: only turned into the editor schema's node here.
    const node = contentToNode(write.content);
    const connection = await this.open(documentId);
    let stored: Promise<LiveStoreResult> | undefined;
    try {
      await connection.transact((document) => replaceYDocContent(document, node));
      // Registered after the change is in the document: the first store from now on holds it.
      stored = this.persistence.storedWrite(documentId, write);
      // Awaited below, once the store has run; a failure must not count as unhandled meanwhile.
      stored.catch(() => {});
    } finally {
      await connection.disconnect();
    }
    return stored;
  }

  /**
   * A change computed from the live body (a thread's mark): read and written in one Yjs transaction, so an
   * edit arriving meanwhile is neither lost nor overwritten. Resolves once the store that follows is made.
   */
  async change(
    documentId: string,
    change: ContentChange,
    write: Omit<LiveWrite, 'content'>,
  ): Promise<boolean> {
    const connection = await this.open(documentId);
    let stored: Promise<LiveStoreResult> | undefined;
    try {
      let next: RichTextDoc | null = null;
      await connection.transact((document) => {
        next = change(repairRichText(yDocToContent(document)).doc);
        if (next) replaceYDocContent(document, contentToNode(next));
      });
      if (next) {
        stored = this.persistence.storedWrite(documentId, { ...write, content: next });
        stored.catch(() => {});
      }
    } finally {
      await connection.disconnect();
    }
    if (!stored) return false;
    await stored;
    return true;
  }

  /** A server-side connection to the document (the live one when open), for the writer's changes. */
  private async open(documentId: string) {
    try {
      return await this.hocuspocus.openDirectConnection(documentId, { writer: true } satisfies WriterContext);
    } catch (error) {
      // Loading refuses a missing document with a close reason, not an Error.
      if (error instanceof Error) throw error;
      throw notFound('Document not found');
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
  titleChanged(documentId: string, title: string): Promise<void> {
    return this.broadcast(documentId, encodeStatelessMessage({ type: 'title', title }));
  }

  /** Tells every client of the document, on every instance, that its comment threads changed. */
  commentsChanged(documentId: string): Promise<void> {
    return this.broadcast(documentId, encodeStatelessMessage({ type: 'comments' }));
  }

  private async broadcast(documentId: string, payload: string): Promise<void> {
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
