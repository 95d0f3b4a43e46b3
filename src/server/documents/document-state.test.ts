import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import * as Y from 'yjs';
import { DOCUMENT_STATE_REQUESTS_PER_MINUTE } from '../../shared/constants';
import { connectCollabClient, paragraphTexts, waitFor } from '../collab/testing';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([createUser(server), createUser(server)]);
});
afterAll(() => server?.close());

async function createDocument(text: string): Promise<string> {
  const res = await server.request('POST', '/api/documents', {
    token: alice.token,
    body: { content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] } },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

function getState(id: string, token: string | null = alice.token, acceptEncoding?: string) {
  return fetch(`${server.url}/api/documents/${id}/state`, {
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
    },
  });
}

async function stateOf(id: string, acceptEncoding?: string): Promise<Uint8Array> {
  const res = await getState(id, alice.token, acceptEncoding);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/octet-stream');
  return new Uint8Array(await res.arrayBuffer());
}

function paragraphsOf(state: Uint8Array): string[] {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return paragraphTexts(doc);
}

describe('GET /api/documents/:id/state', () => {
  it('answers 204 for a document that has never been open live (its first state is made on first open)', async () => {
    const id = await createDocument('Never opened');
    const res = await getState(id);
    expect(res.status).toBe(204);
    expect(await res.arrayBuffer()).toHaveProperty('byteLength', 0);
  });

  it('sends the live document, edits not yet stored included, and an editor starting from it merges without doubling', async () => {
    const id = await createDocument('First paragraph');
    const writer = await connectCollabClient({ serverUrl: server.url, documentId: id, token: alice.token });
    try {
      writer.appendParagraph('Typed a moment ago');
      await waitFor(() => server.app.liveDocuments.currentContent(id)?.content?.length === 2);
      const state = await stateOf(id);
      expect(paragraphsOf(state)).toEqual(['First paragraph', 'Typed a moment ago']);

      // Another tab opens from that state, types before its socket syncs, then connects.
      writer.appendParagraph('Typed while the other tab was opening');
      const opener = await connectCollabClient({
        serverUrl: server.url,
        documentId: id,
        token: alice.token,
        initialState: state,
        waitForSync: false,
      });
      try {
        opener.appendParagraph('Typed before the first sync');
        await waitFor(() => opener.provider.isSynced && writer.paragraphs().length === 4);
        const expected = [
          'First paragraph',
          'Typed a moment ago',
          'Typed while the other tab was opening',
          'Typed before the first sync',
        ];
        expect([...opener.paragraphs()].sort()).toEqual([...expected].sort());
        expect(writer.paragraphs()).toEqual(opener.paragraphs());
      } finally {
        opener.destroy();
      }
    } finally {
      writer.destroy();
    }
  });

  it('sends the stored state once nobody has the document open', async () => {
    const id = await createDocument('Stored paragraph');
    const writer = await connectCollabClient({ serverUrl: server.url, documentId: id, token: alice.token });
    writer.appendParagraph('Stored edit');
    writer.destroy();
    await waitFor(() => !server.app.liveDocuments.isLoaded(id), 5_000, 'unload');
    expect(paragraphsOf(await stateOf(id))).toEqual(['Stored paragraph', 'Stored edit']);
  });

  it('is compressed for a browser that accepts brotli or gzip, and sent as it is otherwise', async () => {
    const id = await createDocument('A paragraph that says the same thing. '.repeat(800));
    const writer = await connectCollabClient({ serverUrl: server.url, documentId: id, token: alice.token });
    try {
      const plain = await stateOf(id, 'identity');
      for (const encoding of ['br', 'gzip']) {
        const res = await server.app.inject({
          method: 'GET',
          url: `/api/documents/${id}/state`,
          headers: { authorization: `Bearer ${alice.token}`, 'accept-encoding': encoding },
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toContain('accept-encoding');
        expect(res.rawPayload.byteLength).toBeLessThan(plain.byteLength / 4);
        const decoded = encoding === 'br' ? brotliDecompressSync(res.rawPayload) : gunzipSync(res.rawPayload);
        expect(new Uint8Array(decoded)).toEqual(plain);
      }
    } finally {
      writer.destroy();
    }
  });

  it("answers another user's document with 404, a signed-out request with 401 and a malformed id with 400", async () => {
    const id = await createDocument('Private');
    const writer = await connectCollabClient({ serverUrl: server.url, documentId: id, token: alice.token });
    try {
      const others = await getState(id, bob.token);
      expect(others.status).toBe(404);
      expect(await others.json()).toMatchObject({ code: 'not_found' });
      expect((await getState(id, null)).status).toBe(401);
      expect((await getState('not-a-uuid')).status).toBe(400);
    } finally {
      writer.destroy();
    }
  });

  it('answers a signed-out session with 401 while the document is live', async () => {
    const id = await createDocument('Open in another tab');
    const writer = await connectCollabClient({ serverUrl: server.url, documentId: id, token: alice.token });
    try {
      const tab = await server.request('POST', '/api/auth/token?grant_type=password', {
        body: { email: alice.email, password: alice.password },
      });
      expect(tab.status).toBe(200);
      const token = tab.body.access_token as string;
      expect((await getState(id, token)).status).toBe(200);
      expect((await server.request('POST', '/api/auth/logout', { token, rawBody: '' })).status).toBe(204);
      const after = await getState(id, token);
      expect(after.status).toBe(401);
      expect(await after.json()).toMatchObject({ code: expect.any(String) });
    } finally {
      writer.destroy();
    }
  });

  // Last: it uses up this address's allowance for the minute.
  it('is rate limited per address, with the API error shape', async () => {
    const id = await createDocument('Asked for too often');
    const statuses = await Promise.all(
      Array.from({ length: DOCUMENT_STATE_REQUESTS_PER_MINUTE }, async () => (await getState(id)).status),
    );
    // The tests above asked a few times already this minute.
    const answered = statuses.filter((status) => status === 204).length;
    expect(answered).toBeGreaterThan(DOCUMENT_STATE_REQUESTS_PER_MINUTE - 20);
    expect(answered).toBeLessThan(DOCUMENT_STATE_REQUESTS_PER_MINUTE);
    const refused = await getState(id);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'over_request_rate_limit' });
  });
});
