import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectCollabClient, waitFor, type CollabClient } from '../collab/testing';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import type { DocumentGoal } from '../../shared/schemas/goals';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const docOf = (...texts: string[]) => ({ type: 'doc', content: texts.map(paragraph) });

let server: TestServer;
let owner: TestUser;
let editor: TestUser;
let stranger: TestUser;
const clients: CollabClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  [owner, editor, stranger] = await Promise.all([createUser(server), createUser(server), createUser(server)]);
});
afterAll(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await server?.close();
});

async function createDocument(user: TestUser, content = docOf('One two three')): Promise<string> {
  const res = await server.request('POST', '/api/documents', { token: user.token, body: { content } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function goalOf(user: TestUser, documentId: string, zone = 'UTC') {
  const res = await server.request<DocumentGoal>('GET', `/api/documents/${documentId}/goal?zone=${zone}`, {
    token: user.token,
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Polls the writer's goal until `check` holds (words are counted after each store). */
async function goalOnce(user: TestUser, documentId: string, check: (goal: DocumentGoal) => boolean) {
  let goal = await goalOf(user, documentId);
  const deadline = Date.now() + 10_000;
  while (!check(goal) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    goal = await goalOf(user, documentId);
  }
  return goal;
}

async function connect(user: TestUser, documentId: string) {
  const client = await connectCollabClient({ serverUrl: server.url, documentId, token: user.token });
  clients.push(client);
  return client;
}

describe('writing goals', () => {
  it('sets, reads and clears a target with a deadline; the daily target spreads what is left', async () => {
    const id = await createDocument(owner);
    const empty = await goalOf(owner, id, 'Europe/Paris');
    expect(empty).toMatchObject({ target_words: null, deadline: null, words: 3, daily_target: null });
    expect(empty.zone).toBe('Europe/Paris');
    expect(empty.history).toHaveLength(30);

    const today = empty.today;
    const inTenDays = new Date(Date.parse(`${today}T00:00:00Z`) + 9 * 86_400_000).toISOString().slice(0, 10);
    const set = await server.request<DocumentGoal>('PUT', `/api/documents/${id}/goal`, {
      token: owner.token,
      body: { target_words: 1003, deadline: inTenDays, zone: 'Europe/Paris' },
    });
    expect(set.status, set.text).toBe(200);
    // 1000 words left over ten days, today included.
    expect(set.body).toMatchObject({ target_words: 1003, deadline: inTenDays, words: 3, daily_target: 100 });
    expect(await goalOf(owner, id, 'Europe/Paris')).toMatchObject({ target_words: 1003, daily_target: 100 });

    const cleared = await server.request('DELETE', `/api/documents/${id}/goal`, { token: owner.token });
    expect(cleared.status).toBe(204);
    expect(await goalOf(owner, id)).toMatchObject({ target_words: null, deadline: null });
  });

  it('refuses a bad target or zone with 400', async () => {
    const id = await createDocument(owner);
    for (const body of [
      { target_words: 0 },
      { target_words: 10, deadline: '2026-13-40' },
      { target_words: 'x' },
    ]) {
      const res = await server.request('PUT', `/api/documents/${id}/goal`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    const zone = await server.request('GET', `/api/documents/${id}/goal?zone=Mars/Olympus`, {
      token: owner.token,
    });
    expect(zone.status).toBe(400);
  });

  it("answers 404 for another user's document, and for a missing one", async () => {
    const id = await createDocument(owner);
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { target_words: 10 }],
      ['DELETE', undefined],
    ] as const) {
      const res = await server.request(method, `/api/documents/${id}/goal`, { token: stranger.token, body });
      expect(res.status, method).toBe(404);
    }
    const missing = await server.request('GET', '/api/documents/00000000-0000-4000-8000-000000000000/goal', {
      token: owner.token,
    });
    expect(missing.status).toBe(404);
  });

  it("counts a writer's own REST changes as net words, down as well as up", async () => {
    const id = await createDocument(owner);
    const patch = (content: unknown) =>
      server.request('PATCH', `/api/documents/${id}`, { token: owner.token, body: { content } });
    expect((await patch(docOf('One two three four five six'))).status).toBe(200);
    let goal = await goalOnce(owner, id, (g) => g.today_words === 3);
    expect(goal).toMatchObject({ words: 6, today_words: 3 });
    expect((await patch(docOf('One two'))).status).toBe(200);
    goal = await goalOnce(owner, id, (g) => g.today_words === -1);
    expect(goal).toMatchObject({ words: 2, today_words: -1 });
    expect(goal.history.at(-1)).toEqual({ day: goal.today, words: goal.today_words_all });
  });

  it("never counts a collaborator's live words as the owner's", async () => {
    const id = await createDocument(owner, docOf('Start'));
    const invite = await server.request('POST', `/api/documents/${id}/members`, {
      token: owner.token,
      body: { email: editor.email, role: 'editor' },
    });
    expect(invite.status, invite.text).toBe(201);
    const ownerAllBefore = (await goalOf(owner, id)).today_words_all;

    const ownerClient = await connect(owner, id);
    const editorClient = await connect(editor, id);
    editorClient.appendParagraph('the collaborator writes these five words');
    await waitFor(() => ownerClient.paragraphs().length === 2, 5_000, 'the edit to reach the owner');
    const editorGoal = await goalOnce(editor, id, (g) => g.today_words === 6);
    expect(editorGoal.today_words).toBe(6);
    const ownerGoal = await goalOf(owner, id);
    expect(ownerGoal.today_words).toBe(0);
    expect(ownerGoal.today_words_all).toBe(ownerAllBefore);
    expect(ownerGoal.words).toBe(7);

    ownerClient.appendParagraph('and the owner adds four');
    const after = await goalOnce(owner, id, (g) => g.today_words === 5);
    expect(after.today_words).toBe(5);
    expect((await goalOf(editor, id)).today_words).toBe(6);
  });

  it('sums a folder over its documents and its sub-folders, and keeps other users out', async () => {
    const folder = async (name: string, parentId: string | null = null) => {
      const res = await server.request('POST', '/api/folders', {
        token: owner.token,
        body: { name, parentId },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const place = async (documentId: string, folderId: string) => {
      const res = await server.request('PUT', `/api/documents/${documentId}/folder`, {
        token: owner.token,
        body: { folderId },
      });
      expect(res.status, res.text).toBe(200);
    };
    const book = await folder('Book');
    const part = await folder('Part one', book);
    const chapter = await createDocument(owner, docOf('Chapter one has five words'));
    const scene = await createDocument(owner, docOf('A scene of six words here'));
    const outside = await createDocument(owner, docOf('Not in the book'));
    await place(chapter, book);
    await place(scene, part);

    const set = await server.request<DocumentGoal>('PUT', `/api/folders/${book}/goal`, {
      token: owner.token,
      body: { target_words: 111 },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ target_words: 111, words: 11, daily_target: null, today_words: 0 });
    // The sub-folder alone has its own (empty) goal and its own words.
    const partGoal = await server.request<DocumentGoal>('GET', `/api/folders/${part}/goal`, {
      token: owner.token,
    });
    expect(partGoal.body).toMatchObject({ target_words: null, words: 6 });

    // Words written in a document of the book count for the book, not those written elsewhere.
    const patch = (id: string, content: unknown) =>
      server.request('PATCH', `/api/documents/${id}`, { token: owner.token, body: { content } });
    expect((await patch(scene, docOf('A scene of six words here and two'))).status).toBe(200);
    expect((await patch(outside, docOf('Not in the book at all'))).status).toBe(200);
    await goalOnce(owner, outside, (g) => g.today_words === 2);
    const after = await server.request<DocumentGoal>('GET', `/api/folders/${book}/goal`, {
      token: owner.token,
    });
    expect(after.body).toMatchObject({ words: 13, today_words: 2 });
    expect(after.body.today_words_all).toBeGreaterThanOrEqual(4);

    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { target_words: 10 }],
      ['DELETE', undefined],
    ] as const) {
      const res = await server.request(method, `/api/folders/${book}/goal`, { token: stranger.token, body });
      expect(res.status, method).toBe(404);
      expect(res.body.code).toBe('folder_not_found');
    }
    expect((await server.request('DELETE', `/api/folders/${book}/goal`, { token: owner.token })).status).toBe(
      204,
    );
    const cleared = await server.request<DocumentGoal>('GET', `/api/folders/${book}/goal`, {
      token: owner.token,
    });
    expect(cleared.body.target_words).toBeNull();
  });
});
