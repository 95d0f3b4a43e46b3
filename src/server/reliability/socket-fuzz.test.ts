import { writeAuthentication } from '@hocuspocus/common';
import fc from 'fast-check';
import * as encoding from 'lib0/encoding';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { COLLAB_FRAGMENT } from '../../shared/editor/collab-protocol';
import { sanitizeDocContent } from '../../shared/schemas/richText';
import { collabUrl, connectCollabClient, waitFor } from '../collab/testing';
import { documents } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

/**
 * Fuzzer for the collaboration socket: raw WebSocket frames in the Hocuspocus wire format (document name,
 * message type, payload) with random bytes, unknown message types, hostile document names, and Yjs sync
 * messages carrying random or mutated updates — sent before and after authenticating as the owner. The
 * server must survive every frame (no crash, no unhandled error), keep the document usable for a real
 * client, and store nothing the editor schema would refuse.
 */

// Hocuspocus message types and y-protocols sync steps (the wire format of @hocuspocus/provider).
const MESSAGE = { sync: 0, awareness: 1, auth: 2, queryAwareness: 3, syncReply: 4, stateless: 5 } as const;
const SYNC = { step1: 0, step2: 1, update: 2 } as const;

// CI runs a short pass; `FUZZ_RUNS=300 npx vitest run src/server/reliability/socket-fuzz.test.ts` a long one.
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const KEPT_TEXT = 'Words the fuzzer must not take';

let server: TestServer;
let owner: TestUser;
let other: TestUser;
let documentId: string;
let othersDocumentId: string;
let framesSent = 0;
let connections = 0;

function envelope(name: string, type: number, write: (encoder: encoding.Encoder) => void): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarString(encoder, name);
  encoding.writeVarUint(encoder, type);
  write(encoder);
  return encoding.toUint8Array(encoder);
}

const authFrame = (name: string, token: string) =>
  envelope(name, MESSAGE.auth, (encoder) => writeAuthentication(encoder, token));

const syncFrame = (name: string, step: number, payload: Uint8Array) =>
  envelope(name, MESSAGE.sync, (encoder) => {
    encoding.writeVarUint(encoder, step);
    encoding.writeVarUint8Array(encoder, payload);
  });

/** A real Yjs update as the editor would send it: a paragraph with marked text, and sometimes a deletion. */
function realUpdate(text: string, withDeletion: boolean): Uint8Array {
  const doc = new Y.Doc();
  const fragment = doc.getXmlFragment(COLLAB_FRAGMENT);
  const paragraph = new Y.XmlElement('paragraph');
  const content = new Y.XmlText();
  content.insert(0, text, { bold: true });
  paragraph.insert(0, [content]);
  fragment.insert(0, [paragraph]);
  if (withDeletion && text.length > 1) content.delete(0, 1);
  return Y.encodeStateAsUpdate(doc);
}

type Mutation =
  | { kind: 'flip'; at: number; bits: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'repeat'; times: number };

function mutate(update: Uint8Array, mutations: Mutation[]): Uint8Array {
  let bytes = Uint8Array.from(update);
  for (const mutation of mutations) {
    const at = bytes.length === 0 ? 0 : Math.abs(mutation.kind === 'repeat' ? 0 : mutation.at) % bytes.length;
    if (mutation.kind === 'flip' && bytes.length > 0) bytes[at] = bytes[at]! ^ (mutation.bits || 1);
    if (mutation.kind === 'truncate') bytes = bytes.slice(0, at);
    if (mutation.kind === 'insert')
      bytes = Uint8Array.from([...bytes.slice(0, at), ...mutation.bytes, ...bytes.slice(at)]);
    if (mutation.kind === 'repeat')
      bytes = Uint8Array.from(Array.from({ length: mutation.times }, () => [...bytes]).flat());
  }
  return bytes;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bits: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }),
  }),
  fc.record({ kind: fc.constant('repeat' as const), times: fc.integer({ min: 2, max: 3 }) }),
);

const updatePayload = fc.oneof(
  fc.uint8Array({ maxLength: 512 }),
  fc
    .record({
      text: fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }),
      withDeletion: fc.boolean(),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
    })
    .map(({ text, withDeletion, mutations }) => mutate(realUpdate(text, withDeletion), mutations)),
  // A varuint length far beyond the frame (a decoder that trusts it would allocate or read past the end).
  fc.constant(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3])),
);

/** One frame of what a hostile client may send; the name is the target document unless it is replaced. */
const frame = (name: string): fc.Arbitrary<Uint8Array> =>
  fc
    .oneof(
      { weight: 4, arbitrary: fc.tuple(fc.constantFrom(SYNC.step2, SYNC.update), updatePayload) },
      { weight: 1, arbitrary: fc.tuple(fc.constant(SYNC.step1), fc.uint8Array({ maxLength: 64 })) },
      { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 3, max: 300 }), fc.uint8Array({ maxLength: 64 })) },
    )
    .map(([step, payload]) => syncFrame(name, step, payload))
    .chain((sync) =>
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(sync) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.integer({ min: 0, max: 40 }), fc.uint8Array({ maxLength: 128 }))
            .map(([type, payload]) =>
              envelope(name, type, (encoder) => encoding.writeUint8Array(encoder, payload)),
            ),
        },
        {
          weight: 1,
          arbitrary: fc
            .string({ maxLength: 200 })
            .map((text) =>
              envelope(name, MESSAGE.stateless, (encoder) => encoding.writeVarString(encoder, text)),
            ),
        },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }) },
      ),
    );

const documentName = fc.oneof(
  { weight: 6, arbitrary: fc.constant('target') },
  { weight: 1, arbitrary: fc.constant('others') },
  { weight: 1, arbitrary: fc.constantFrom('', '../../etc/passwd', 'x'.repeat(10_000), '\u0000\ud800') },
);

interface Session {
  name: string;
  authenticate: boolean;
  frames: Uint8Array[];
}

const session: fc.Arbitrary<Session> = documentName.chain((alias) => {
  const name = alias === 'target' ? documentId : alias === 'others' ? othersDocumentId : alias;
  return fc.record({
    name: fc.constant(name),
    authenticate: fc.boolean(),
    frames: fc.array(frame(name), { minLength: 1, maxLength: 6 }),
  });
});

/** Opens a raw socket, sends the session's frames, and waits briefly for the server's answer or close. */
async function play({ name, authenticate, frames }: Session): Promise<void> {
  connections++;
  const socket = new WebSocket(collabUrl(server.url));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let closed = false;
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  if (authenticate) socket.send(authFrame(name, owner.token));
  for (const bytes of frames) {
    if (closed) break;
    framesSent++;
    socket.send(bytes);
  }
  await waitFor(() => closed, 150).catch(() => {});
  socket.terminate();
}

async function storedContent(id: string) {
  const [row] = await server.database.db
    .select({ content: documents.content })
    .from(documents)
    .where(eq(documents.id, id));
  return row!.content;
}

const textOf = (node: unknown): string =>
  JSON.stringify(node)
    .match(/"text":"((?:[^"\\]|\\.)*)"/g)
    ?.join('') ?? '';

beforeAll(async () => {
  server = await startTestServer();
  [owner, other] = await Promise.all([createUser(server), createUser(server)]);
  const create = async (user: TestUser, text: string) => {
    const res = await server.request('POST', '/api/documents', {
      token: user.token,
      body: {
        title: 'Socket fuzz',
        content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] },
      },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  documentId = await create(owner, KEPT_TEXT);
  othersDocumentId = await create(other, 'Another writer’s words');
});

afterAll(async () => {
  console.log(`socket fuzz: ${connections} connections, ${framesSent} frames`);
  await server?.close();
});

describe('collaboration socket fuzzer', () => {
  it('survives random, mutated and malformed frames; the document stays valid and usable', async () => {
    await fc.assert(fc.asyncProperty(session, play), { numRuns: RUNS });

    // The server is up and answers.
    const health = await server.request('GET', '/api/health');
    expect(health.status).toBe(200);

    // A real client still opens the document, sees the writer's words, and its edit is stored.
    const client = await connectCollabClient({ serverUrl: server.url, documentId, token: owner.token });
    try {
      expect(client.paragraphs().join('\n')).toContain(KEPT_TEXT);
      client.appendParagraph('Written after the fuzzing');
      const deadline = Date.now() + 10_000;
      while (!textOf(await storedContent(documentId)).includes('Written after the fuzzing')) {
        expect(Date.now(), 'the edit after fuzzing is stored').toBeLessThan(deadline);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      client.destroy();
    }

    // What is stored passes the editor schema unchanged, and nobody else's document was touched.
    const stored = await storedContent(documentId);
    expect(sanitizeDocContent(stored)).toEqual({ ok: true, doc: stored });
    expect(textOf(stored)).toContain(KEPT_TEXT);
    expect(textOf(await storedContent(othersDocumentId))).toBe('"text":"Another writer’s words"');
  }, 180_000);
});
