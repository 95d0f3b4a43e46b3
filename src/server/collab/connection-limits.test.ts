import type { beforeHandleMessagePayload, Document } from '@hocuspocus/server';
import * as encoding from 'lib0/encoding';
import { describe, expect, it, vi } from 'vitest';
import { COLLAB_CLOSE } from '../../shared/editor/collab-protocol';
import { DocumentSizeLimitExtension, recordDocumentSize, SocketLimiter } from './connection-limits';

/** A Hocuspocus message: document name, message type (0 sync, 1 awareness), then `bytes` of payload. */
function message(type: number, bytes: number): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, 'doc');
  encoding.writeVarUint(encoder, type);
  encoding.writeUint8Array(encoder, new Uint8Array(bytes));
  return encoding.toUint8Array(encoder);
}

describe('SocketLimiter', () => {
  it('lets a burst through, then refuses a flood until the bucket refills', () => {
    vi.useFakeTimers();
    try {
      const limiter = new SocketLimiter({ messagesPerSecond: 10, messageBurst: 5, maxMessageBytes: 100 });
      for (let i = 0; i < 5; i++) expect(limiter.accept(10)).toBeNull();
      expect(limiter.accept(10)).toBe(COLLAB_CLOSE.rateLimited);
      vi.advanceTimersByTime(200); // two messages' worth at 10/s
      expect(limiter.accept(10)).toBeNull();
      expect(limiter.accept(10)).toBeNull();
      expect(limiter.accept(10)).toBe(COLLAB_CLOSE.rateLimited);
      expect(limiter.accept(101)).toBe(COLLAB_CLOSE.messageTooLarge);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('DocumentSizeLimitExtension', () => {
  it('refuses the sync message that would take the document past the limit; awareness is not counted', async () => {
    const limit = new DocumentSizeLimitExtension(1_000);
    const document = {} as Document;
    recordDocumentSize(document, 600);
    const handle = (update: Uint8Array) =>
      limit.beforeHandleMessage({ document, update } as unknown as beforeHandleMessagePayload);
    await expect(handle(message(0, 300))).resolves.toBeUndefined();
    await expect(handle(message(1, 5_000))).resolves.toBeUndefined();
    await expect(handle(message(0, 300))).rejects.toEqual(COLLAB_CLOSE.documentTooLarge);
    // A store resets the count to the real size.
    recordDocumentSize(document, 500);
    await expect(handle(message(0, 300))).resolves.toBeUndefined();
  });
});
