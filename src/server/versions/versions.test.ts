import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStoredFor } from '../../shared/editor/collab-protocol';
import { connectCollabClient, waitFor, type CollabClient } from '../collab/testing';
import { documentVersions, users } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { AUTO_VERSION_INTERVAL_MS } from './service';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const docOf = (...texts: string[]) => ({ type: 'doc', content: texts.map(paragraph) });
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A clock the test moves by hand. */
function fakeClock(start = new Date('2026-03-02T09:00:00Z')) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const clients: CollabClient[] = [];
async function connect(server: TestServer, documentId: string, token: string) {
  const client = await connectCollabClient({ serverUrl: server.url, documentId, token });
  clients.push(client);
  return client;
}

/** Appends a paragraph live and waits until the server stored it. */
async function typeLive(client: CollabClient, text: string) {
  client.appendParagraph(text);
  await waitFor(
    () => client.messages.some((m) => m.type === 'stored' && isStoredFor(m, client.doc)),
    10_000,
    'store',
  );
}

/**
 * The version list once it holds `count` versions: the `stored` message goes out when the document is
 * stored, and the time-based version is taken just after it (afterStoreDocument).
 */
async function versionsOnceThere(server: TestServer, user: TestUser, documentId: string, count: number) {
  const deadline = Date.now() + 5_000;
  let list = await listVersions(server, user, documentId);
  while (list.length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    list = await listVersions(server, user, documentId);
  }
  return list;
}

async function createDocument(server: TestServer, user: TestUser, body: unknown = {}): Promise<string> {
  const res = await server.request('POST', '/api/documents', { token: user.token, body });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function listVersions(server: TestServer, user: TestUser, documentId: string) {
  const res = await server.request('GET', `/api/documents/${documentId}/versions`, { token: user.token });
  expect(res.status).toBe(200);
  return res.body as {
    id: string;
    reason: string;
    name: string | null;
    authors: { id: string; name: string }[];
    word_count: number;
    created_at: string;
  }[];
}

describe('version history', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await createUser(server, { fullName: 'Alice Author' });
    bob = await createUser(server, { fullName: 'Bob Other' });
  });
  afterAll(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await server?.close();
  });

  it('names the current state, lists it newest first and returns its full title and content', async () => {
    const id = await createDocument(server, alice, { title: 'Essay', content: docOf('first draft words') });
    const saved = await server.request('POST', `/api/documents/${id}/versions`, {
      token: alice.token,
      body: { name: '  Before edits ' },
    });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({
      reason: 'manual',
      name: 'Before edits',
      title: 'Essay',
      content: docOf('first draft words'),
    });

    await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { content: docOf('second') },
    });
    const second = await server.request('POST', `/api/documents/${id}/versions`, {
      token: alice.token,
      body: { name: 'Second' },
    });

    const list = await listVersions(server, alice, id);
    expect(list.map((v) => v.name)).toEqual(['Second', 'Before edits']);
    expect(list[0]).toMatchObject({ id: second.body.id, reason: 'manual', word_count: 1 });
    expect(list[0]!.authors).toEqual([{ id: alice.id, name: 'Alice Author' }]);
    expect(list[1]!.word_count).toBe(3);

    const one = await server.request('GET', `/api/documents/${id}/versions/${saved.body.id}`, {
      token: alice.token,
    });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      id: saved.body.id,
      created_at: saved.body.created_at,
      reason: 'manual',
      name: 'Before edits',
      title: 'Essay',
      content: docOf('first draft words'),
    });
  });

  it('answers 404 to another user and 401 without a session, and refuses bad input with 400', async () => {
    const id = await createDocument(server, alice, { content: docOf('private') });
    const saved = await server.request('POST', `/api/documents/${id}/versions`, {
      token: alice.token,
      body: { name: 'Mine' },
    });
    const base = `/api/documents/${id}/versions`;
    for (const [method, path, body] of [
      ['GET', base, undefined],
      ['GET', `${base}/${saved.body.id}`, undefined],
      ['POST', base, { name: 'x' }],
      ['POST', `${base}/checkpoint`, { reason: 'ai' }],
      ['POST', `${base}/${saved.body.id}/restore`, undefined],
      ['DELETE', `${base}/${saved.body.id}`, undefined],
    ] as const) {
      const asBob = await server.request(method, path, { token: bob.token, body });
      expect(asBob.status, `${method} ${path}`).toBe(404);
      expect(asBob.body.code).toBe('not_found');
      const anonymous = await server.request(method, path, { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
    }
    expect((await server.request('POST', base, { token: alice.token, body: { name: '   ' } })).status).toBe(
      400,
    );
    expect(
      (await server.request('POST', base, { token: alice.token, body: { name: 'x'.repeat(121) } })).status,
    ).toBe(400);
    expect(
      (await server.request('POST', `${base}/checkpoint`, { token: alice.token, body: { reason: 'manual' } }))
        .status,
    ).toBe(400);
    const badId = await server.request('GET', `${base}/not-a-uuid`, { token: alice.token });
    expect(badId.status).toBe(400);
    const missing = await server.request('GET', `${base}/00000000-0000-4000-8000-000000000000`, {
      token: alice.token,
    });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('version_not_found');
    // Bob's version list is untouched by his failed attempts, Alice's still has exactly hers.
    expect((await listVersions(server, alice, id)).map((v) => v.name)).toEqual(['Mine']);
  });

  it('restores the exact title and content for a connected editor, keeping a version of what it replaced', async () => {
    const id = await createDocument(server, alice, {
      title: 'Plan A',
      content: docOf('Original line', 'Second line'),
    });
    const saved = await server.request('POST', `/api/documents/${id}/versions`, {
      token: alice.token,
      body: { name: 'Good' },
    });
    const editor = await connect(server, id, alice.token);
    await typeLive(editor, 'A mistaken paste');
    await server.request('PATCH', `/api/documents/${id}`, { token: alice.token, body: { title: 'Plan B' } });

    const restored = await server.request('POST', `/api/documents/${id}/versions/${saved.body.id}/restore`, {
      token: alice.token,
    });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      id,
      title: 'Plan A',
      content: docOf('Original line', 'Second line'),
    });
    // The connected editor sees it without reloading.
    await waitFor(() => editor.paragraphs().join('|') === 'Original line|Second line', 5_000, 'live restore');

    const current = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
    expect(current.body).toMatchObject({ title: 'Plan A', content: docOf('Original line', 'Second line') });

    const list = await listVersions(server, alice, id);
    expect(list[0]!.reason).toBe('restore');
    expect(list[0]!.id).toBe(restored.body.replaced_version_id);
    const replaced = await server.request('GET', `/api/documents/${id}/versions/${list[0]!.id}`, {
      token: alice.token,
    });
    expect(replaced.body).toMatchObject({
      title: 'Plan B',
      content: docOf('Original line', 'Second line', 'A mistaken paste'),
    });
  });

  it('takes an auto version at the first stored change, then at most one per 10 minutes (fake clock)', async () => {
    const clock = fakeClock();
    server.app.versions.clock = clock;
    const id = await createDocument(server, alice, { title: 'Timed', content: docOf('start') });
    const editor = await connect(server, id, alice.token);

    await typeLive(editor, 'one');
    let list = await versionsOnceThere(server, alice, id, 1);
    expect(list.map((v) => v.reason)).toEqual(['auto']);
    expect(list[0]!.authors).toEqual([{ id: alice.id, name: 'Alice Author' }]);

    clock.advance(AUTO_VERSION_INTERVAL_MS - MINUTE);
    await typeLive(editor, 'two');
    expect((await listVersions(server, alice, id)).length).toBe(1);

    clock.advance(2 * MINUTE);
    await typeLive(editor, 'three');
    list = await versionsOnceThere(server, alice, id, 2);
    expect(list.map((v) => v.reason)).toEqual(['auto', 'auto']);
    const newest = await server.request('GET', `/api/documents/${id}/versions/${list[0]!.id}`, {
      token: alice.token,
    });
    expect(newest.body.content).toEqual(docOf('start', 'one', 'two', 'three'));
    server.app.versions.clock = { now: () => new Date() };
  });

  it('keeps the state before a REST replacement when no version was taken for 10 minutes (fake clock)', async () => {
    const clock = fakeClock();
    server.app.versions.clock = clock;
    const id = await createDocument(server, alice, { title: 'Via API', content: docOf('original') });
    const patch = (text: string) =>
      server.request('PATCH', `/api/documents/${id}`, { token: alice.token, body: { content: docOf(text) } });

    expect((await patch('first rewrite')).status).toBe(200);
    let list = await listVersions(server, alice, id);
    expect(list.map((v) => v.reason)).toEqual(['auto']);
    const kept = await server.request('GET', `/api/documents/${id}/versions/${list[0]!.id}`, {
      token: alice.token,
    });
    expect(kept.body.content).toEqual(docOf('original'));

    clock.advance(5 * MINUTE);
    await patch('second rewrite');
    expect((await listVersions(server, alice, id)).length).toBe(1);

    clock.advance(6 * MINUTE);
    await patch('third rewrite');
    list = await listVersions(server, alice, id);
    expect(list.length).toBe(2);
    const newest = await server.request('GET', `/api/documents/${id}/versions/${list[0]!.id}`, {
      token: alice.token,
    });
    expect(newest.body.content).toEqual(docOf('second rewrite'));
    expect(list[0]!.authors).toEqual([{ id: alice.id, name: 'Alice Author' }]);
    server.app.versions.clock = { now: () => new Date() };
  });

  it('takes a session_end version when the last editor leaves a changed document, none for an unchanged one', async () => {
    const id = await createDocument(server, alice, { content: docOf('before') });
    const saved = await server.request('POST', `/api/documents/${id}/versions`, {
      token: alice.token,
      body: { name: 'Start' },
    });
    expect(saved.status).toBe(201);
    const first = await connect(server, id, alice.token);
    const second = await connect(server, id, alice.token);
    // Within the 10 minutes after the named version: no auto version, only the session end.
    await typeLive(first, 'edited');
    first.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await listVersions(server, alice, id)).map((v) => v.reason)).toEqual(['manual']);
    second.destroy();
    await waitFor(() => !server.app.hocuspocus.documents.has(id), 5_000, 'unload');
    let list: Awaited<ReturnType<typeof listVersions>> = [];
    for (let i = 0; i < 50 && list.length < 2; i++) {
      list = await listVersions(server, alice, id);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(list.map((v) => v.reason)).toEqual(['session_end', 'manual']);

    const reader = await connect(server, id, alice.token);
    reader.destroy();
    await waitFor(() => !server.app.hocuspocus.documents.has(id), 5_000, 'unload');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await listVersions(server, alice, id)).length).toBe(2);
  });

  it('keeps the state before an AI change and names the AI as an author of the next version', async () => {
    const id = await createDocument(server, alice, { content: docOf('my own words') });
    const checkpoint = await server.request('POST', `/api/documents/${id}/versions/checkpoint`, {
      token: alice.token,
      body: { reason: 'ai' },
    });
    expect(checkpoint.status).toBe(201);
    expect(checkpoint.body).toMatchObject({ reason: 'ai', content: docOf('my own words') });
    // Nothing changed since: a second checkpoint does not duplicate it.
    const again = await server.request('POST', `/api/documents/${id}/versions/checkpoint`, {
      token: alice.token,
      body: { reason: 'ai' },
    });
    expect(again.status).toBe(204);

    await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { content: docOf('AI rewrite') },
    });
    const named = await server.request('POST', `/api/documents/${id}/versions`, {
      token: alice.token,
      body: { name: 'After AI' },
    });
    expect(named.status).toBe(201);
    const list = await listVersions(server, alice, id);
    expect(list.map((v) => v.reason)).toEqual(['manual', 'ai']);
    expect(list[0]!.authors.map((a) => a.name)).toEqual(['AI', 'Alice Author']);
  });

  it('deletes named versions only; deleting the document for good deletes its versions', async () => {
    const id = await createDocument(server, alice, { content: docOf('x') });
    const named = await server.request('POST', `/api/documents/${id}/versions`, {
      token: alice.token,
      body: { name: 'Named' },
    });
    await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { content: docOf('y') },
    });
    const auto = await server.request('POST', `/api/documents/${id}/versions/checkpoint`, {
      token: alice.token,
      body: { reason: 'import' },
    });
    expect(auto.status).toBe(201);

    const refused = await server.request('DELETE', `/api/documents/${id}/versions/${auto.body.id}`, {
      token: alice.token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('version_not_deletable');
    const deleted = await server.request('DELETE', `/api/documents/${id}/versions/${named.body.id}`, {
      token: alice.token,
    });
    expect(deleted.status).toBe(204);
    expect((await listVersions(server, alice, id)).map((v) => v.id)).toEqual([auto.body.id]);

    await server.request('DELETE', `/api/documents/${id}`, { token: alice.token });
    await server.request('DELETE', `/api/trash/${id}`, { token: alice.token });
    const [left] = await server.database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(documentVersions)
      .where(eq(documentVersions.documentId, id));
    expect(left!.count).toBe(0);
  });

  describe('retention by plan', () => {
    async function documentWithVersions(plan: string) {
      const owner = await createUser(server, { plan });
      const clock = fakeClock();
      server.app.versions.clock = clock;
      const id = await createDocument(server, owner, { content: docOf('v1') });
      const v1 = await server.request('POST', `/api/documents/${id}/versions/checkpoint`, {
        token: owner.token,
        body: { reason: 'import' },
      });
      clock.advance(MINUTE);
      const named = await server.request('POST', `/api/documents/${id}/versions`, {
        token: owner.token,
        body: { name: 'Keep me' },
      });
      clock.advance(MINUTE);
      await server.request('PATCH', `/api/documents/${id}`, {
        token: owner.token,
        body: { content: docOf('v2') },
      });
      const v2 = await server.request('POST', `/api/documents/${id}/versions/checkpoint`, {
        token: owner.token,
        body: { reason: 'ai' },
      });
      expect([v1.status, named.status, v2.status]).toEqual([201, 201, 201]);
      return {
        owner,
        clock,
        id,
        v1: v1.body.id as string,
        named: named.body.id as string,
        v2: v2.body.id as string,
      };
    }
    afterAll(() => {
      server.app.versions.clock = { now: () => new Date() };
    });

    it('Gratis keeps automatic versions 7 days, but always the named ones and the newest', async () => {
      const { owner, clock, id, named, v2 } = await documentWithVersions('gratis');
      clock.advance(6 * DAY);
      expect((await listVersions(server, owner, id)).length).toBe(3);
      clock.advance(2 * DAY);
      expect((await listVersions(server, owner, id)).map((v) => v.id)).toEqual([v2, named]);
    });

    it('Creator keeps them 90 days', async () => {
      const { owner, clock, id, named, v2 } = await documentWithVersions('creator');
      clock.advance(89 * DAY);
      expect((await listVersions(server, owner, id)).length).toBe(3);
      clock.advance(2 * DAY);
      expect((await listVersions(server, owner, id)).map((v) => v.id)).toEqual([v2, named]);
    });

    it('Professional keeps them forever', async () => {
      const { owner, clock, id } = await documentWithVersions('professional');
      clock.advance(3650 * DAY);
      expect((await listVersions(server, owner, id)).length).toBe(3);
    });

    it('the hourly sweep prunes documents nobody opens, following a plan change', async () => {
      const { owner, clock, id, named, v2 } = await documentWithVersions('professional');
      clock.advance(30 * DAY);
      await server.database.db.update(users).set({ plan: 'gratis' }).where(eq(users.id, owner.id));
      const { pruneVersions } = await import('./retention');
      expect(await pruneVersions(server.database.db, clock.now())).toBeGreaterThanOrEqual(1);
      const rows = await server.database.db
        .select({ id: documentVersions.id })
        .from(documentVersions)
        .where(eq(documentVersions.documentId, id));
      expect(new Set(rows.map((r) => r.id))).toEqual(new Set([v2, named]));
    });
  });
});
