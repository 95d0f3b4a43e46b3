import type { beforeHandleMessagePayload, Document, Extension } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
import { COLLAB_CLOSE, COLLAB_LIMITS } from '../../shared/editor/collab-protocol';

type Limits = { readonly [K in keyof typeof COLLAB_LIMITS]: number };

/**
 * Message rate and message size of one socket, checked before a message reaches Hocuspocus (which queues
 * every message of a connection, so a flood must be cut before it is queued). `accept` answers the close
 * to send, or null when the message may go on.
 */
export class SocketLimiter {
  private tokens: number;
  private refilledAt = Date.now();

  constructor(
    private readonly limits: Pick<
      Limits,
      'messagesPerSecond' | 'messageBurst' | 'maxMessageBytes'
    > = COLLAB_LIMITS,
  ) {
    this.tokens = limits.messageBurst;
  }

  accept(byteLength: number): { code: number; reason: string } | null {
    if (byteLength > this.limits.maxMessageBytes) return COLLAB_CLOSE.messageTooLarge;
    const now = Date.now();
    this.tokens = Math.min(
      this.limits.messageBurst,
      this.tokens + ((now - this.refilledAt) / 1000) * this.limits.messagesPerSecond,
    );
    this.refilledAt = now;
    if (this.tokens < 1) return COLLAB_CLOSE.rateLimited;
    this.tokens -= 1;
    return null;
  }
}

/** Hocuspocus' message types that carry sync messages (the varUint after the document name): Sync, SyncReply. */
const SYNC_MESSAGE_TYPES = new Set([0, 4]);

/** Bytes of Yjs state each live document had when last loaded or stored, and what came in since. */
const documentSizes = new WeakMap<Document, { stored: number; since: number }>();

/** Called by persistence after a load or store with the size of the state it read or wrote. */
export function recordDocumentSize(document: Document, bytes: number): void {
  documentSizes.set(document, { stored: bytes, since: 0 });
}

/**
 * The document-size limit: a sync message that would take a document past maxDocumentBytes (the state at
 * the last load or store plus every sync message since, an upper bound) is refused before it is applied,
 * and its connection closed with `document-too-large`. What the document held stays and is stored.
 */
export class DocumentSizeLimitExtension implements Extension {
  extensionName = 'QuillwrightDocumentSizeLimit';
  // After authentication (200), before anything else handles the message.
  priority = 150;

  constructor(private readonly maxDocumentBytes: number = COLLAB_LIMITS.maxDocumentBytes) {}

  async beforeHandleMessage({ document, update }: beforeHandleMessagePayload) {
    if (!isSyncMessage(update)) return;
    const size = documentSizes.get(document) ?? { stored: 0, since: 0 };
    if (size.stored + size.since + update.byteLength > this.maxDocumentBytes) {
      // A plain object: Hocuspocus closes the connection with this code and reason.
      throw { code: COLLAB_CLOSE.documentTooLarge.code, reason: COLLAB_CLOSE.documentTooLarge.reason };
    }
    size.since += update.byteLength;
    documentSizes.set(document, size);
  }
}

function isSyncMessage(message: Uint8Array): boolean {
  try {
    const decoder = decoding.createDecoder(message);
    decoding.readVarString(decoder);
    return SYNC_MESSAGE_TYPES.has(decoding.readVarUint(decoder));
  } catch {
    return false;
  }
}
