import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLAB_CLOSE } from '../../shared/editor/collab-protocol';
import type { RichTextDoc } from '../../shared/schemas/richText';
import type { TrashPage } from '../../shared/schemas/trash';
import { connectCollabClient, waitFor } from '../collab/testing';
import { ConfigError, loadConfig } from '../config';
import { documents, documentVersions } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

const docWith = (words: string): RichTextDoc => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: words }] }],
});
const DAY_MS = 86_400_000;

let server: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer({ env: { TRASH_RETENTION_DAYS: '30' } });
  [alice, bob] = await Promise.all([createUser(server), createUser(server)]);
});
afterAll(() => server?.close());

async function create(user: TestUser, title = 'Trash me', words = 'kept words') {
  const res = await server.request('POST', '/api/documents', {
    token: user.token,
    body: { title, content: docWith(words) },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function trash(user: TestUser, id: string) {
  const res = await server.request('DELETE', `/api/documents/${id}`, { token: user.token });
  expect(res.status, res.text).toBe(204);
}

async function trashList(user: TestUser, query = ''): Promise<TrashPage> {
  const res = await server.request('GET', `/api/trash${query}`, { token: user.token });
  expect(res.status, res.text).toBe(200);
  return res.body as TrashPage;
}

/** Moves a trashed document's trashing `days` days into the past. */
async function trashedDaysAgo(id: string, days: number) {
  await server.database.db
    .update(documents)
    .set({ trashedAt: new Date(Date.now() - days * DAY_MS) })
    .where(eq(documents.id, id));
}

const exists = async (id: string) =>
  (await server.database.db.select({ id: documents.id }).from(documents).where(eq(documents.id, id))).length >
  0;

describe('moving to the trash and back', () => {
  it('hides the document everywhere, lists it in the trash, and restores it as it was', async () => {
    const id = await create(alice, 'Kept essay', 'lighthouse keeper');
    const before = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
    await server.request('POST', `/api/documents/${id}/versions`, {
      token: alice.token,
      body: { name: 'v' },
    });
    await trash(alice, id);

    const list = await server.request('GET', '/api/documents', { token: alice.token });
    expect(list.body.map((d: { id: string }) => d.id)).not.toContain(id);
    const library = await server.request('GET', '/api/search/documents', { token: alice.token });
    expect(JSON.stringify(library.body)).not.toContain(id);
    const search = await server.request('GET', '/api/search?q=lighthouse', { token: alice.token });
    expect(search.body).toEqual([]);

    const page = await trashList(alice);
    const entry = page.documents.find((d) => d.id === id)!;
    expect(entry.title).toBe('Kept essay');
    expect(page.retentionDays).toBe(30);
    expect(Date.now() - Date.parse(entry.trashedAt)).toBeLessThan(60_000);
    expect(Date.parse(entry.purgeAt) - Date.parse(entry.trashedAt)).toBe(30 * DAY_MS);
    // The versions stay while it is in the trash.
    const [kept] = await server.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(documentVersions)
      .where(eq(documentVersions.documentId, id));
    expect(kept!.n).toBeGreaterThan(0);

    const restored = await server.request('POST', `/api/trash/${id}/restore`, { token: alice.token });
    expect(restored.status, restored.text).toBe(204);
    const after = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect((await trashList(alice)).documents.map((d) => d.id)).not.toContain(id);
    const versions = await server.request('GET', `/api/documents/${id}/versions`, { token: alice.token });
    expect(versions.body.map((v: { name: string | null }) => v.name)).toContain('v');
  });

  it('refuses what is not in the trash: a live document cannot be restored or deleted for good', async () => {
    const id = await create(alice);
    expect((await server.request('POST', `/api/trash/${id}/restore`, { token: alice.token })).status).toBe(
      404,
    );
    expect((await server.request('DELETE', `/api/trash/${id}`, { token: alice.token })).status).toBe(404);
    await trash(alice, id);
    // Trashing twice: the second finds no live document.
    expect((await server.request('DELETE', `/api/documents/${id}`, { token: alice.token })).status).toBe(404);
    const bad = await server.request('POST', '/api/trash/not-a-uuid/restore', { token: alice.token });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBeTypeOf('string');
    expect((await server.request('GET', '/api/trash?limit=0', { token: alice.token })).status).toBe(400);
    expect((await server.request('GET', '/api/trash')).status).toBe(401);
  });

  it('deletes one document for good, then empties the rest of the trash', async () => {
    const user = await createUser(server);
    const [a, b, c] = [await create(user, 'A'), await create(user, 'B'), await create(user, 'C')];
    for (const id of [a, b, c]) await trash(user, id);
    const page = await trashList(user);
    expect(page.documents.map((d) => d.title)).toEqual(['C', 'B', 'A']);
    expect(page.total).toBe(3);
    const paged = await trashList(user, '?limit=1&offset=1');
    expect(paged).toMatchObject({ total: 3, documents: [{ title: 'B' }] });
    expect((await trashList(user, '?offset=5')).total).toBe(3);

    expect((await server.request('DELETE', `/api/trash/${b}`, { token: user.token })).status).toBe(204);
    expect(await exists(b)).toBe(false);
    expect((await trashList(user)).documents.map((d) => d.title)).toEqual(['C', 'A']);

    const live = await create(user, 'Live');
    expect((await server.request('DELETE', '/api/trash', { token: user.token })).status).toBe(204);
    expect(await trashList(user)).toMatchObject({ total: 0, documents: [] });
    expect(await exists(a)).toBe(false);
    expect(await exists(c)).toBe(false);
    expect(await exists(live)).toBe(true);
  });

  it("answers 404 for another user's trashed document, and never lists or empties it", async () => {
    const id = await create(alice, 'Alice only');
    await trash(alice, id);
    expect((await server.request('POST', `/api/trash/${id}/restore`, { token: bob.token })).status).toBe(404);
    expect((await server.request('DELETE', `/api/trash/${id}`, { token: bob.token })).status).toBe(404);
    expect((await server.request('DELETE', '/api/trash', { token: bob.token })).status).toBe(204);
    expect(JSON.stringify(await trashList(bob))).not.toContain(id);
    expect((await trashList(alice)).documents.map((d) => d.id)).toContain(id);
    expect(await exists(id)).toBe(true);
  });
});

describe('a trashed document is missing to every way in', () => {
  it('answers 404 to its owner on GET, PATCH, state, export, versions, sharing settings and AI chat', async () => {
    const id = await create(alice);
    await trash(alice, id);
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/documents/${id}`],
      ['GET', `/api/documents/${id}/state`],
      ['PATCH', `/api/documents/${id}`, { title: 'renamed' }],
      ['PATCH', `/api/documents/${id}`, { content: docWith('new') }],
      ['GET', `/api/documents/${id}/export?format=md`],
      ['GET', `/api/documents/${id}/versions`],
      ['POST', `/api/documents/${id}/versions`, { name: 'x' }],
      ['GET', `/api/documents/${id}/share`],
      ['PUT', `/api/documents/${id}/share`, { isPublic: true }],
      ['GET', `/api/ai/chat/${id}`],
      ['GET', `/api/ai/suggestions?documentId=${id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.request(method, path, { token: alice.token, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code, `${method} ${path}`).toBeTypeOf('string');
    }
    const [row] = await server.database.db
      .select({ title: documents.title, version: documents.version })
      .from(documents)
      .where(eq(documents.id, id));
    expect(row).toEqual({ title: 'Trash me', version: 1 });
  });

  it('refuses the collaboration socket while in the trash, and opens it again after the restore', async () => {
    const id = await create(alice);
    await trash(alice, id);
    const refused = await connectCollabClient({
      serverUrl: server.url,
      documentId: id,
      token: alice.token,
      waitForSync: false,
    });
    try {
      await waitFor(() => refused.refusals.length > 0 || refused.provider.isSynced, 10_000, 'refusal');
      expect(refused.refusals[0]).toBe(COLLAB_CLOSE.notFound.reason);
    } finally {
      refused.destroy();
    }
    await server.request('POST', `/api/trash/${id}/restore`, { token: alice.token });
    const client = await connectCollabClient({ serverUrl: server.url, documentId: id, token: alice.token });
    try {
      expect(client.paragraphs()).toEqual(['kept words']);
      // Trashing an open document closes its connections, as deleting did.
      await trash(alice, id);
      await waitFor(
        () => client.refusals.includes(COLLAB_CLOSE.accessRevoked.reason),
        5_000,
        'closed after trashing',
      );
    } finally {
      client.destroy();
    }
  });

  it('its share link answers 410 document_trashed, and works again after the restore', async () => {
    const id = await create(alice, 'Shared', 'public words');
    const shared = await server.request('PUT', `/api/documents/${id}/share`, {
      token: alice.token,
      body: { isPublic: true },
    });
    expect(shared.status).toBe(200);
    const open = await server.request('GET', `/api/shared/${id}`);
    expect(open.status).toBe(200);
    const shareToken = open.body.shareToken as string;
    await trash(alice, id);

    const gone = await server.request('GET', `/api/shared/${id}`);
    expect(gone.status).toBe(410);
    expect(gone.body).toEqual({ message: 'This document is in the trash', code: 'document_trashed' });
    // Not kept by the browser: the link works again after a restore.
    expect(gone.headers.get('cache-control')).toBe('no-store');
    const unlock = await server.request('POST', `/api/shared/${id}/unlock`, { body: { password: 'x' } });
    expect(unlock.status).toBe(410);
    const visitor = await connectCollabClient({
      serverUrl: server.url,
      documentId: id,
      token: shareToken,
      waitForSync: false,
    });
    try {
      await waitFor(() => visitor.refusals.length > 0 || visitor.provider.isSynced, 10_000, 'refusal');
      expect(visitor.provider.isSynced).toBe(false);
    } finally {
      visitor.destroy();
    }

    await server.request('POST', `/api/trash/${id}/restore`, { token: alice.token });
    const back = await server.request('GET', `/api/shared/${id}`);
    expect(back.status).toBe(200);
    expect(back.body.title).toBe('Shared');
  });
});

describe('the purge', () => {
  it('deletes documents whose time in the trash is over, with their versions, and nothing else', async () => {
    const user = await createUser(server);
    const expired = await create(user, 'Expired');
    const recent = await create(user, 'Recent');
    const live = await create(user, 'Live');
    await server.request('POST', `/api/documents/${expired}/versions`, {
      token: user.token,
      body: { name: 'v' },
    });
    await trash(user, expired);
    await trash(user, recent);
    await trashedDaysAgo(expired, 30.01);
    await trashedDaysAgo(recent, 29.9);
    const deleted: string[] = [];
    const off = server.app.deps.documentEvents.on('deleted', (e) => void deleted.push(e.documentId));
    try {
      expect(await server.app.deps.documentWriter.purgeTrash()).toBeGreaterThanOrEqual(1);
      // Running again (another instance, the next day) finds nothing more of these.
      await server.app.deps.documentWriter.purgeTrash();
    } finally {
      off();
    }
    expect(deleted.filter((id) => id === expired)).toHaveLength(1);
    expect(await exists(expired)).toBe(false);
    expect(await exists(recent)).toBe(true);
    expect(await exists(live)).toBe(true);
    const [versions] = await server.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(documentVersions)
      .where(eq(documentVersions.documentId, expired));
    expect(versions!.n).toBe(0);
  });
});

describe('TRASH_RETENTION_DAYS', () => {
  const load = (value: string) =>
    loadConfig({ JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/qw-trash-config', TRASH_RETENTION_DAYS: value });

  it('defaults to 30 days and refuses what is not a whole number of days at start', () => {
    expect(
      loadConfig({ JWT_SECRET: 'x'.repeat(40), DATA_DIR: '/tmp/qw-trash-config' }).TRASH_RETENTION_DAYS,
    ).toBe(30);
    expect(load('7').TRASH_RETENTION_DAYS).toBe(7);
    for (const bad of ['0', '-1', '1.5', 'soon']) expect(() => load(bad), bad).toThrow(ConfigError);
  });
});

describe('plan limits count documents outside the trash', () => {
  let limited: TestServer;
  afterAll(() => limited?.close());

  it('lets a new document take a trashed one’s place, and refuses a restore beyond the limit', async () => {
    limited = await startTestServer({ env: { ENFORCE_PLAN_LIMITS: 'true' } });
    const user = await createUser(limited, { plan: 'gratis' });
    const createIn = async () =>
      limited.request('POST', '/api/documents', { token: user.token, body: { title: 'n' } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createIn()).body.id as string);
    expect((await createIn()).status).toBe(403);

    const del = await limited.request('DELETE', `/api/documents/${ids[0]}`, { token: user.token });
    expect(del.status).toBe(204);
    const replacement = await createIn();
    expect(replacement.status).toBe(201);

    const refused = await limited.request('POST', `/api/trash/${ids[0]}/restore`, { token: user.token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('plan_limit');
    expect((await limited.request('GET', '/api/trash', { token: user.token })).body.total).toBe(1);
    // At the limit, another writer's trashed document is still just not found.
    const other = await createUser(limited, { plan: 'gratis' });
    const theirs = await limited.request('POST', '/api/documents', {
      token: other.token,
      body: { title: 'o' },
    });
    await limited.request('DELETE', `/api/documents/${theirs.body.id}`, { token: other.token });
    const stranger = await limited.request('POST', `/api/trash/${theirs.body.id}/restore`, {
      token: user.token,
    });
    expect(stranger.status).toBe(404);

    await limited.request('DELETE', `/api/documents/${replacement.body.id}`, { token: user.token });
    const restored = await limited.request('POST', `/api/trash/${ids[0]}/restore`, { token: user.token });
    expect(restored.status).toBe(204);
  });
});
