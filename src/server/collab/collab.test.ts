import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLAB_ACCESS_RECHECK_MS, COLLAB_CLOSE, isStoredFor } from '../../shared/editor/collab-protocol';
import { sessions } from '../db/schema';
import { createTestDatabase } from '../test/database';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { connectCollabClient, waitFor, type CollabClient } from './testing';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const docOf = (...texts: string[]) => ({ type: 'doc', content: texts.map(paragraph) });
const textsOf = (content: { content?: { content?: { text?: string }[] }[] }) =>
  (content.content ?? []).map((block) => (block.content ?? []).map((inline) => inline.text ?? '').join(''));

const clients: CollabClient[] = [];
async function connect(server: TestServer, documentId: string, token: string | null, waitForSync = true) {
  const client = await connectCollabClient({ serverUrl: server.url, documentId, token, waitForSync });
  clients.push(client);
  return client;
}
function closeClients() {
  for (const client of clients.splice(0)) client.destroy();
}

async function createDocument(server: TestServer, user: TestUser, body: unknown = {}): Promise<string> {
  const res = await server.request('POST', '/api/documents', { token: user.token, body });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe('live collaboration on one server', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    [alice, bob] = await Promise.all([createUser(server), createUser(server)]);
  });
  afterAll(async () => {
    closeClients();
    await server?.close();
  });

  it('two clients merge concurrent inserts and a third joining late gets both', async () => {
    const id = await createDocument(server, alice, { content: docOf('Start') });
    const one = await connect(server, id, alice.token);
    const two = await connect(server, id, alice.token);
    expect(one.paragraphs()).toEqual(['Start']);

    // Both write before either has seen the other's change.
    one.appendParagraph('from one');
    two.appendParagraph('from two');
    await waitFor(() => one.paragraphs().length === 3 && two.paragraphs().length === 3, 5_000, 'merge');
    expect(one.paragraphs()).toEqual(two.paragraphs());
    expect(new Set(one.paragraphs())).toEqual(new Set(['Start', 'from one', 'from two']));

    const late = await connect(server, id, alice.token);
    expect(late.paragraphs()).toEqual(one.paragraphs());
  });

  it('stores the Yjs edits: GET /api/documents/:id returns the derived content with a new ETag', async () => {
    const id = await createDocument(server, alice);
    const before = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
    const client = await connect(server, id, alice.token);
    client.appendParagraph('typed live');

    // The server announces the store; after it, the client's own edits are durable.
    await waitFor(
      () => client.messages.some((m) => m.type === 'stored' && isStoredFor(m, client.doc)),
      8_000,
    );
    const res = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body.content).toEqual(docOf('typed live'));
    expect(Number(JSON.parse(res.headers.get('etag')!))).toBeGreaterThan(
      Number(JSON.parse(before.headers.get('etag')!)),
    );

    // An API client holding the old ETag cannot overwrite what was typed.
    const stale = await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { content: docOf('old copy') },
      headers: { 'if-match': before.headers.get('etag')! },
    });
    expect(stale.status).toBe(412);
    expect(client.paragraphs()).toEqual(['typed live']);
  });

  it('PATCH content from the REST API while a client is connected ends up in the client', async () => {
    const id = await createDocument(server, alice, { content: docOf('first', 'second') });
    const client = await connect(server, id, alice.token);
    const current = await server.request('GET', `/api/documents/${id}`, { token: alice.token });

    const res = await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { content: docOf('first', 'replaced by the API') },
      headers: { 'if-match': current.headers.get('etag')! },
    });
    expect(res.status).toBe(200);
    await waitFor(
      () => client.paragraphs()[1] === 'replaced by the API',
      5_000,
      'REST content in the client',
    );
    expect(client.paragraphs()).toEqual(['first', 'replaced by the API']);

    // The live document keeps it (no store brings the old text back), and the PATCH's ETag stays valid.
    client.appendParagraph('and more');
    await waitFor(
      () => client.messages.some((m) => m.type === 'stored' && isStoredFor(m, client.doc)),
      8_000,
    );
    const after = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
    expect(textsOf(after.body.content)).toEqual(['first', 'replaced by the API', 'and more']);
  });

  it('PATCH content keeps the ETag it answered with when nothing else changed', async () => {
    const id = await createDocument(server, alice, { content: docOf('a') });
    await connect(server, id, alice.token);
    const res = await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { content: docOf('b') },
    });
    expect(res.status).toBe(200);
    const get = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
    expect(get.headers.get('etag')).toBe(res.headers.get('etag'));
    expect(get.body.content).toEqual(docOf('b'));
  });

  it('PATCH content of a document nobody has open rebuilds its live state from the new content', async () => {
    const id = await createDocument(server, alice, { content: docOf('v1') });
    const first = await connect(server, id, alice.token);
    first.appendParagraph('live');
    first.destroy(); // last one out: stored and unloaded
    await waitFor(() => !server.app.liveDocuments.isLoaded(id), 5_000, 'unload');

    const res = await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { content: docOf('v2') },
    });
    expect(res.status).toBe(200);
    const again = await connect(server, id, alice.token);
    expect(again.paragraphs()).toEqual(['v2']);
  });

  it('a title change through PATCH reaches connected clients', async () => {
    const id = await createDocument(server, alice);
    const client = await connect(server, id, alice.token);
    const res = await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { title: 'New name' },
    });
    expect(res.status).toBe(200);
    await waitFor(() => client.messages.some((m) => m.type === 'title' && m.title === 'New name'), 5_000);
  });

  it("refuses another user's token, no token and a bad token", async () => {
    const id = await createDocument(server, alice);
    const other = await connect(server, id, bob.token, false);
    const none = await connect(server, id, null, false);
    const bad = await connect(server, id, 'not-a-token', false);
    const missing = await connect(server, '00000000-0000-4000-8000-000000000000', alice.token, false);
    await waitFor(
      () => [other, none, bad, missing].every((c) => c.refusals.length > 0),
      5_000,
      'all refused',
    );
    expect(other.refusals[0]).toBe(COLLAB_CLOSE.notFound.reason);
    expect(none.refusals[0]).toBe(COLLAB_CLOSE.unauthorized.reason);
    expect(bad.refusals[0]).toBe(COLLAB_CLOSE.unauthorized.reason);
    expect(missing.refusals[0]).toBe(COLLAB_CLOSE.notFound.reason);
    for (const client of [other, none, bad]) expect(client.provider.isSynced).toBe(false);
    expect(other.paragraphs()).toEqual([]);
  });

  it('ends the connection when the session is signed out, and drops its later edits', async () => {
    const user = await createUser(server);
    const id = await createDocument(server, user, { content: docOf('kept') });
    const client = await connect(server, id, user.token);
    await server.database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.id, user.sessionId));
    // The next message after the re-check window is refused.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    client.appendParagraph('after sign-out');
    await waitFor(() => client.refusals.includes(COLLAB_CLOSE.accessRevoked.reason), 5_000, 'access revoked');
    const [row] = await server.database.exec('select content from documents where id = $1', [id]);
    expect(textsOf((row as { content: never }).content)).toEqual(['kept']);
  });

  it('also ends the connection when the sign-out is found by a background re-check', async () => {
    const user = await createUser(server);
    const id = await createDocument(server, user);
    const client = await connect(server, id, user.token);
    // Past half the window, a message goes through and triggers a background re-check.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await server.database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.id, user.sessionId));
    client.appendParagraph('typed while signing out elsewhere');
    await waitFor(() => client.refusals.includes(COLLAB_CLOSE.accessRevoked.reason), 5_000, 'access revoked');
  });

  it('closes an idle connection of a signed-out session within the re-check window, with no message sent', async () => {
    const user = await createUser(server);
    const id = await createDocument(server, user);
    const client = await connect(server, id, user.token);
    // Another user's connection, swept in the same statement, stays.
    const other = await connect(server, await createDocument(server, alice), alice.token);
    await server.database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.id, user.sessionId));
    const revokedAt = Date.now();
    await waitFor(() => client.refusals.includes(COLLAB_CLOSE.accessRevoked.reason), 5_000, 'access revoked');
    // The sweep runs every half window: the idle socket is dropped within the window.
    expect(Date.now() - revokedAt).toBeLessThan(COLLAB_ACCESS_RECHECK_MS + 500);
    expect(other.refusals).toEqual([]);
  });

  it('on the embedded database, re-checks a signed-in connection only after a write that could revoke it', async () => {
    if (server.database.kind !== 'pglite') return;
    const user = await createUser(server);
    const id = await createDocument(server, user);
    const client = await connect(server, id, user.token);
    const { exec } = server.database;
    const sessionLookups: string[] = [];
    server.database.exec = (sqlText, params) => {
      if (/from "?sessions"?\s/u.test(sqlText)) sessionLookups.push(sqlText);
      return exec(sqlText, params);
    };
    try {
      // Typing and storing for two whole windows: the session is not read again.
      for (let i = 0; i < 4; i++) {
        client.appendParagraph(`quiet ${i}`);
        await new Promise((resolve) => setTimeout(resolve, COLLAB_ACCESS_RECHECK_MS / 2));
      }
      expect(sessionLookups).toEqual([]);
      expect(client.refusals).toEqual([]);
      // Revoking another session is a change too: it is looked up, and this connection stays.
      const other = await createUser(server);
      await server.database.db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(eq(sessions.id, other.sessionId));
      await waitFor(() => sessionLookups.length > 0, COLLAB_ACCESS_RECHECK_MS, 'a lookup after the change');
      client.appendParagraph('still signed in');
      await new Promise((resolve) => setTimeout(resolve, COLLAB_ACCESS_RECHECK_MS / 2));
      expect(client.refusals).toEqual([]);
      // Its own revocation closes it within the window.
      await server.database.db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(eq(sessions.id, user.sessionId));
      await waitFor(
        () => client.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
        COLLAB_ACCESS_RECHECK_MS + 500,
        'access revoked',
      );
    } finally {
      server.database.exec = exec;
    }
  });

  it('gives a view-only share-link visitor the saved copy but not the live document, and drops an editing visitor when the link turns view-only', async () => {
    const id = await createDocument(server, alice, { content: docOf('shared text') });
    const share = await server.request('PUT', `/api/documents/${id}/share`, {
      token: alice.token,
      body: { isPublic: true, allowEditing: false },
    });
    expect(share.status).toBe(200);
    const opened = await server.request('GET', `/api/shared/${id}`);
    expect(opened.status).toBe(200);
    expect(JSON.stringify(opened.body.content)).toContain('shared text');
    // The live document holds every pending suggestion, which a reader of the saved copy may not see.
    await expect(connect(server, id, opened.body.shareToken as string)).rejects.toThrow(
      COLLAB_CLOSE.viewOnly.reason,
    );

    const editable = await server.request('PUT', `/api/documents/${id}/share`, {
      token: alice.token,
      body: { isPublic: true, allowEditing: true },
    });
    expect(editable.status).toBe(200);
    const reopened = await server.request('GET', `/api/shared/${id}`);
    const owner = await connect(server, id, alice.token);
    const visitor = await connect(server, id, reopened.body.shareToken as string);
    visitor.appendParagraph('visitor edit');
    await waitFor(() => owner.paragraphs().includes('visitor edit'), 5_000, 'visitor edit reaches the owner');

    const readOnly = await server.request('PUT', `/api/documents/${id}/share`, {
      token: alice.token,
      body: { isPublic: true, allowEditing: false },
    });
    expect(readOnly.status).toBe(200);
    await waitFor(
      () => visitor.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
      5_000,
      'visitor dropped',
    );
    expect(owner.refusals).toEqual([]);
  });

  it('closes live connections when the document is moved to the trash', async () => {
    const id = await createDocument(server, alice);
    const client = await connect(server, id, alice.token);
    const res = await server.request('DELETE', `/api/documents/${id}`, { token: alice.token });
    expect(res.status).toBe(204);
    await waitFor(
      () => client.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
      5_000,
      'closed after delete',
    );
  });
});

describe('persistence across a restart', () => {
  let dataDir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'qw-collab-restart-'));
    database = await createTestDatabase();
  });
  afterAll(async () => {
    closeClients();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a document comes back from the database with both writers’ text after the server restarts', async () => {
    const storage = { dataDir, databaseUrl: database.databaseUrl };
    const first = await startTestServer({ storage });
    let id: string;
    let token: string;
    try {
      const user = await createUser(first);
      token = user.token;
      id = await createDocument(first, user);
      const one = await connect(first, id, token);
      const two = await connect(first, id, token);
      one.appendParagraph('written by one');
      two.appendParagraph('written by two');
      await waitFor(() => one.paragraphs().length === 2 && two.paragraphs().length === 2, 5_000, 'merge');
    } finally {
      // Graceful shutdown stores live documents before the database closes.
      await first.close();
    }
    closeClients();

    const second = await startTestServer({ storage });
    try {
      const again = await connect(second, id, token);
      expect(new Set(again.paragraphs())).toEqual(new Set(['written by one', 'written by two']));
      const res = await second.request('GET', `/api/documents/${id}`, { token });
      expect(new Set(textsOf(res.body.content))).toEqual(new Set(['written by one', 'written by two']));
    } finally {
      closeClients();
      await second.close();
    }
  });
});
