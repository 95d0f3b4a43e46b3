import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket, type ClientOptions } from 'ws';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { COLLAB_MAX_FRAME_BYTES } from './collab-plugin';
import { collabUrl, connectCollabClient, waitFor, type CollabClient } from './testing';

let server: TestServer;
let writer: TestUser;
const clients: CollabClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  writer = await createUser(server);
});
afterAll(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await server?.close();
});

/** A `ws` client class that counts the bytes its sockets receive, offering permessage-deflate or not. */
function countingWebSocket(offerCompression: boolean) {
  const received = { bytes: 0 };
  const sockets: WebSocket[] = [];
  class Counting extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      const options: ClientOptions = {
        perMessageDeflate: offerCompression,
        createConnection: (connectOptions) => {
          const socket: Socket = connect(connectOptions as Parameters<typeof connect>[0]);
          socket.on('data', (chunk: Buffer) => (received.bytes += chunk.byteLength));
          return socket;
        },
      };
      super(address, protocols, options);
      sockets.push(this);
    }
  }
  return { Counting: Counting as unknown as typeof WebSocket, received, sockets };
}

const words = Array.from({ length: 2_000 }, (_, i) => `word${(i * 7919) % 997}`);
const book = {
  type: 'doc',
  content: Array.from({ length: 400 }, (_, p) => ({
    type: 'paragraph',
    content: [{ type: 'text', text: words.slice((p * 37) % 1_900, ((p * 37) % 1_900) + 100).join(' ') }],
  })),
};

it("sends a long document's first sync compressed to a client that offers it, and small messages as they are", async () => {
  const created = await server.request('POST', '/api/documents', {
    token: writer.token,
    body: { title: 'Book', content: book },
  });
  expect(created.status).toBe(201);
  const documentId = created.body.id as string;

  const read = async (offerCompression: boolean) => {
    const counting = countingWebSocket(offerCompression);
    const client = await connectCollabClient({
      serverUrl: server.url,
      documentId,
      token: writer.token,
      WebSocketPolyfill: counting.Counting,
    });
    clients.push(client);
    return { ...counting, client };
  };
  const plain = await read(false);
  const compressed = await read(true);
  const reader = plain.client;
  const compressedReader = compressed.client;

  expect(plain.sockets[0]!.extensions).toBe('');
  expect(compressed.sockets[0]!.extensions).toContain('permessage-deflate');
  // The same document, in under a third of the bytes.
  expect(compressedReader.paragraphs()).toEqual(reader.paragraphs());
  expect(reader.paragraphs()).toHaveLength(400);
  expect(plain.received.bytes).toBeGreaterThan(200_000);
  expect(compressed.received.bytes).toBeLessThan(plain.received.bytes / 3);

  // A keystroke reaches the compressed reader as usual.
  const before = compressed.received.bytes;
  reader.appendParagraph('One more line.');
  await waitFor(() => compressedReader.paragraphs().at(-1) === 'One more line.', 5_000, 'keystroke');
  expect(compressed.received.bytes - before).toBeLessThan(1_000);
});

it('closes a socket whose compressed message inflates past the frame limit, and goes on serving others', async () => {
  const bomb = new WebSocket(collabUrl(server.url), { perMessageDeflate: true });
  await new Promise((resolve, reject) => {
    bomb.once('open', resolve);
    bomb.once('error', reject);
  });
  expect(bomb.extensions).toContain('permessage-deflate');
  // Zeros compress about a thousandfold: a few kilobytes on the wire, twice the largest frame once inflated.
  const closed = new Promise<number>((resolve) => bomb.once('close', (code) => resolve(code)));
  bomb.send(Buffer.alloc(2 * COLLAB_MAX_FRAME_BYTES), { compress: true });
  expect(await closed).toBe(1009);

  const created = await server.request('POST', '/api/documents', {
    token: writer.token,
    body: { title: 'After' },
  });
  const reader = await connectCollabClient({
    serverUrl: server.url,
    documentId: created.body.id as string,
    token: writer.token,
  });
  clients.push(reader);
  expect(reader.provider.isSynced).toBe(true);
});
