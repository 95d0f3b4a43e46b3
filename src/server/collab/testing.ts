import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import {
  COLLAB_FRAGMENT,
  COLLAB_PATH,
  parseStatelessMessage,
  type CollabStatelessMessage,
} from '../../shared/editor/collab-protocol';

/**
 * Node-side collaboration clients for the integration tests and bench/collab.ts: a real
 * `@hocuspocus/provider` over `ws`, exactly what the browser editor uses minus the editor.
 */

export interface CollabClient {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  /** Reasons of authentication failures and server-side closes, in order. */
  refusals: string[];
  /** Our stateless messages received so far. */
  messages: CollabStatelessMessage[];
  /** Plain text of each block of the body, in order. */
  paragraphs(): string[];
  /** Appends a paragraph with `text` (one Yjs transaction). */
  appendParagraph(text: string): void;
  destroy(): void;
}

export function collabUrl(serverUrl: string): string {
  return serverUrl.replace(/^http/u, 'ws') + COLLAB_PATH;
}

export function paragraphTexts(doc: Y.Doc): string[] {
  return doc
    .getXmlFragment(COLLAB_FRAGMENT)
    .toArray()
    .map((node) =>
      node instanceof Y.XmlElement
        ? node
            .toArray()
            .map((child) => (child instanceof Y.XmlText ? child.toString() : ''))
            .join('')
        : '',
    );
}

export function appendParagraph(doc: Y.Doc, text: string): void {
  const fragment = doc.getXmlFragment(COLLAB_FRAGMENT);
  doc.transact(() => {
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [new Y.XmlText(text)]);
    fragment.insert(fragment.length, [paragraph]);
  });
}

export interface ConnectOptions {
  serverUrl: string;
  documentId: string;
  token: string | null;
  /** Resolve once the first sync is done (default) or once authentication fails. */
  waitForSync?: boolean;
  timeoutMs?: number;
  /** A Yjs update the client's document holds before it connects (an editor's offline copy or first state). */
  initialState?: Uint8Array;
  /** The WebSocket class the provider uses (default: `ws`'s, which offers permessage-deflate as browsers do). */
  WebSocketPolyfill?: typeof WebSocket;
}

/** Connects one provider; resolves when synced, or (waitForSync false) right after creating it. */
export async function connectCollabClient(options: ConnectOptions): Promise<CollabClient> {
  const { serverUrl, documentId, token, waitForSync = true, timeoutMs = 10_000, initialState } = options;
  const { WebSocketPolyfill = WebSocket } = options;
  const doc = new Y.Doc();
  if (initialState) Y.applyUpdate(doc, initialState);
  const socket = new HocuspocusProviderWebsocket({
    url: collabUrl(serverUrl),
    WebSocketPolyfill,
    // Tests restart servers: reconnect quickly and keep trying.
    delay: 50,
    minDelay: 50,
    factor: 1.5,
    maxDelay: 500,
  });
  const refusals: string[] = [];
  const messages: CollabStatelessMessage[] = [];
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: documentId,
    document: doc,
    token,
    onAuthenticationFailed: ({ reason }) => refusals.push(reason),
    onClose: ({ event }) => {
      if (event.reason && event.code !== 1000 && event.code !== 1005) refusals.push(event.reason);
      else if (event.reason && event.reason !== 'provider_initiated') refusals.push(event.reason);
    },
    onStateless: ({ payload }) => {
      const message = parseStatelessMessage(payload);
      if (message) messages.push(message);
    },
  });
  provider.attach();
  const client: CollabClient = {
    doc,
    provider,
    socket,
    refusals,
    messages,
    paragraphs: () => paragraphTexts(doc),
    appendParagraph: (text) => appendParagraph(doc, text),
    destroy: () => {
      // `ws` reports closing a socket that is still connecting as an 'error' event on the next tick; with
      // no listener that is an uncaught exception. A client being torn down has no use for it.
      socket.webSocket?.addEventListener('error', () => {});
      provider.destroy();
      socket.destroy();
    },
  };
  if (waitForSync) {
    try {
      await waitFor(() => provider.isSynced || refusals.length > 0, timeoutMs, 'first sync');
    } catch (error) {
      client.destroy();
      throw error;
    }
    if (!provider.isSynced) {
      client.destroy();
      throw new Error(`connection refused: ${refusals.join(', ')}`);
    }
  }
  return client;
}

/** Polls `condition` every 10 ms until it holds or `timeoutMs` passes. */
export async function waitFor(
  condition: () => boolean,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
