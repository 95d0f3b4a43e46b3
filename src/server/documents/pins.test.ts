import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryPage } from '../../shared/schemas/search';
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

async function create(user: TestUser, title: string) {
  const res = await server.request('POST', '/api/documents', { token: user.token, body: { title } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function library(user: TestUser, sort = 'updated'): Promise<LibraryPage> {
  const res = await server.request('GET', `/api/search/documents?sort=${sort}`, { token: user.token });
  expect(res.status, res.text).toBe(200);
  return res.body as LibraryPage;
}

const pin = (user: TestUser, id: string) =>
  server.request('PUT', `/api/documents/${id}/pin`, { token: user.token });
const unpin = (user: TestUser, id: string) =>
  server.request('DELETE', `/api/documents/${id}/pin`, { token: user.token });

describe('pinned documents', () => {
  it('come first in the library, flagged pinned, in the chosen order among themselves; unpinning puts them back', async () => {
    const user = await createUser(server);
    const first = await create(user, 'Alpha');
    const second = await create(user, 'Bravo');
    await create(user, 'Charlie');
    expect((await library(user)).documents.map((d) => d.title)).toEqual(['Charlie', 'Bravo', 'Alpha']);

    const pinState = async (id: string) =>
      (await server.request('GET', `/api/documents/${id}/pin`, { token: user.token })).body;
    expect(await pinState(first)).toEqual({ pinned: false });
    expect((await pin(user, first)).status).toBe(204);
    expect(await pinState(first)).toEqual({ pinned: true });
    // Pinning twice is the same as once.
    expect((await pin(user, first)).status).toBe(204);
    expect((await pin(user, second)).status).toBe(204);
    const page = await library(user);
    expect(page.total).toBe(3);
    expect(page.documents.map((d) => [d.title, d.pinned])).toEqual([
      ['Bravo', true],
      ['Alpha', true],
      ['Charlie', false],
    ]);
    expect((await library(user, 'title')).documents.map((d) => d.title)).toEqual([
      'Alpha',
      'Bravo',
      'Charlie',
    ]);

    expect((await unpin(user, second)).status).toBe(204);
    expect((await unpin(user, second)).status).toBe(204);
    expect((await library(user)).documents.map((d) => [d.title, d.pinned])).toEqual([
      ['Alpha', true],
      ['Charlie', false],
      ['Bravo', false],
    ]);
  });

  it("another user's document answers 404 to pin and unpin, and their pin never shows in the owner's list", async () => {
    const id = await create(alice, 'Private');
    const pinned = await pin(bob, id);
    expect(pinned.status).toBe(404);
    expect(pinned.body.code).toBe('not_found');
    expect((await unpin(bob, id)).status).toBe(404);
    expect((await server.request('GET', `/api/documents/${id}/pin`, { token: bob.token })).status).toBe(404);
    expect((await pin(bob, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await pin(bob, 'not-a-uuid')).status).toBe(400);
    expect((await library(alice)).documents.find((d) => d.id === id)?.pinned).toBe(false);
    expect(JSON.stringify(await library(bob))).not.toContain(id);
  });

  it('a trashed document does not show as pinned and cannot be pinned; restoring it keeps the pin', async () => {
    const user = await createUser(server);
    const id = await create(user, 'Trashed and back');
    await create(user, 'Other');
    expect((await pin(user, id)).status).toBe(204);
    expect((await server.request('DELETE', `/api/documents/${id}`, { token: user.token })).status).toBe(204);
    expect((await library(user)).documents.map((d) => d.title)).toEqual(['Other']);
    expect((await pin(user, id)).status).toBe(404);

    const restored = await server.request('POST', `/api/trash/${id}/restore`, { token: user.token });
    expect(restored.status).toBe(204);
    const page = await library(user);
    expect(page.documents[0]).toMatchObject({ id, pinned: true });
  });

  it('needs a signed-in user', async () => {
    const id = await create(alice, 'Signed in only');
    expect((await server.request('PUT', `/api/documents/${id}/pin`)).status).toBe(401);
  });
});
