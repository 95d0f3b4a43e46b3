import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectCollabClient, type CollabClient } from '../collab/testing';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { parseSearchQuery } from './search-query';
import { snippetHtml } from './search-service';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const docOf = (...texts: string[]) => ({ type: 'doc', content: texts.map(paragraph) });

describe('search query parsing', () => {
  it('treats the last word being typed as a prefix, and not after a space, a quote or an operator', () => {
    expect(parseSearchQuery('night wri')).toEqual({ phrase: 'night', prefix: 'wri' });
    expect(parseSearchQuery('wri ')).toEqual({ phrase: 'wri', prefix: '' });
    expect(parseSearchQuery('"quiet harbour"')).toEqual({ phrase: '"quiet harbour"', prefix: '' });
    expect(parseSearchQuery('"quiet harb')).toEqual({ phrase: '"quiet harb', prefix: '' });
    expect(parseSearchQuery('cats -dog')).toEqual({ phrase: 'cats -dog', prefix: '' });
    expect(parseSearchQuery('cats or')).toEqual({ phrase: 'cats or', prefix: '' });
  });

  it('escapes the snippet and marks only the matches', () => {
    expect(snippetHtml('a <b>&\uE000word\uE001 "x"\uE000')).toBe(
      'a &lt;b&gt;&amp;<mark>word</mark> &quot;x&quot;',
    );
  });
});

describe('GET /api/search', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const clients: CollabClient[] = [];

  const create = async (user: TestUser, title: string, ...texts: string[]) => {
    const res = await server.request('POST', '/api/documents', {
      token: user.token,
      body: { title, content: docOf(...texts) },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const search = (user: TestUser, q: string, limit?: number) =>
    server.request('GET', `/api/search?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`, {
      token: user.token,
    });

  beforeAll(async () => {
    server = await startTestServer();
    [alice, bob] = await Promise.all([createUser(server), createUser(server)]);
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.destroy();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('ranks a title match above a body match and highlights the words in the snippet', async () => {
    const body = await create(
      alice,
      'Harbour notes',
      'The lighthouse keeper counted lighthouse beams, lighthouse after lighthouse, all night.',
    );
    const title = await create(alice, 'The Lighthouse', 'A story about a keeper and the sea.');
    const res = await search(alice, 'lighthouse');
    expect(res.status).toBe(200);
    expect(res.body.map((hit: { id: string }) => hit.id)).toEqual([title, body]);
    const [first, second] = res.body;
    expect(first.rank).toBeGreaterThan(second.rank);
    expect(second.snippet).toContain('<mark>lighthouse</mark>');
    expect(second.title).toBe('Harbour notes');
    expect(new Date(second.updated_at).getTime()).not.toBeNaN();
  });

  it('highlights a match deep inside a long document, in whole words', async () => {
    const filler = Array.from({ length: 400 }, (_, i) => `filler${i % 7}`).join(' ');
    const id = await create(alice, 'Long read', filler, `${filler} the albatross returned at last ${filler}`);
    const [hit] = (await search(alice, 'albatross')).body;
    expect(hit.id).toBe(id);
    expect(hit.snippet).toContain('<mark>albatross</mark> returned at last');
    for (const word of hit.snippet.replace(/<\/?mark>/g, '').split(' ')) {
      expect(word).toMatch(/^(filler\d|the|albatross|returned|at|last)$/);
    }
  });

  it('stems words: "writing" finds "writes"', async () => {
    const id = await create(alice, 'Habits', 'She writes every morning before breakfast.');
    const res = await search(alice, 'writing ');
    expect(res.body.map((hit: { id: string }) => hit.id)).toContain(id);
    expect(res.body.find((hit: { id: string }) => hit.id === id).snippet).toContain('<mark>writes</mark>');
  });

  it('matches quoted phrases in order only', async () => {
    const inOrder = await create(alice, 'Phrase one', 'We sailed past the quiet green harbour at dawn.');
    const shuffled = await create(alice, 'Phrase two', 'The harbour was green and quiet.');
    const res = await search(alice, '"quiet green harbour"');
    const ids = res.body.map((hit: { id: string }) => hit.id);
    expect(ids).toContain(inOrder);
    expect(ids).not.toContain(shuffled);
  });

  it('matches the last word as a prefix while typing', async () => {
    const id = await create(alice, 'Orchard', 'Marmalade from bitter oranges.');
    expect((await search(alice, 'marmal')).body.map((hit: { id: string }) => hit.id)).toContain(id);
    expect((await search(alice, 'bitter ora')).body.map((hit: { id: string }) => hit.id)).toContain(id);
    expect((await search(alice, 'sweet ora')).body.map((hit: { id: string }) => hit.id)).not.toContain(id);
  });

  it("never returns another user's document", async () => {
    await create(bob, 'Zanzibar secrets', 'Zanzibar zanzibar.');
    expect((await search(alice, 'zanzibar')).body).toEqual([]);
    expect((await search(bob, 'zanzibar')).body).toHaveLength(1);
  });

  it('escapes markup in titles and snippets', async () => {
    await create(
      alice,
      'Quokka <img src=x onerror=alert(1)>',
      'The quokka said <script>alert(1)</script> & smiled.',
    );
    const [hit] = (await search(alice, 'quokka')).body;
    expect(hit.snippet).not.toMatch(/<(?!\/?mark>)/);
    expect(hit.snippet).toContain('&amp;');
  });

  it('refuses an empty or too long query and a bad limit with 400, and a stranger with 401', async () => {
    expect((await search(alice, '   ')).status).toBe(400);
    expect((await server.request('GET', '/api/search', { token: alice.token })).status).toBe(400);
    const long = await search(alice, 'x'.repeat(201));
    expect(long.status).toBe(400);
    expect(long.body.code).toBe('validation_failed');
    expect((await search(alice, 'sea', 500)).status).toBe(400);
    expect((await server.request('GET', '/api/search?q=sea')).status).toBe(401);
  });

  it('a query of stop words or punctuation only finds nothing instead of failing', async () => {
    const res = await search(alice, 'the "" - or');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('stays current after a REST edit and after a live edit over the socket', async () => {
    const id = await create(alice, 'Draft', 'Nothing special yet.');
    expect((await search(alice, 'pelican')).body).toEqual([]);

    const patched = await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { title: 'Pelican draft' },
    });
    expect(patched.status).toBe(200);
    expect((await search(alice, 'pelican')).body.map((hit: { id: string }) => hit.id)).toEqual([id]);

    const client = await connectCollabClient({ serverUrl: server.url, documentId: id, token: alice.token });
    clients.push(client);
    client.appendParagraph('A cormorant landed on the mast.');
    // The live document is stored after the collaboration debounce; the index follows that store.
    const deadline = Date.now() + 15_000;
    while (!(await search(alice, 'cormorant')).body.some((hit: { id: string }) => hit.id === id)) {
      if (Date.now() > deadline) throw new Error('the live edit never reached the search index');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [hit] = (await search(alice, 'cormorant')).body;
    expect(hit.snippet).toContain('<mark>cormorant</mark>');
  });

  it('lists the dashboard library sorted, paged, counted, with each opening text', async () => {
    const fresh = await createUser(server);
    await create(fresh, 'beta', 'Second letter.');
    await create(fresh, 'Alpha', 'First letter, and a long opening line.');
    await create(fresh, 'gamma');
    const byTitle = await server.request('GET', '/api/search/documents?sort=title&limit=2', {
      token: fresh.token,
    });
    expect(byTitle.status).toBe(200);
    expect(byTitle.body.total).toBe(3);
    expect(byTitle.body.documents.map((d: { title: string }) => d.title)).toEqual(['Alpha', 'beta']);
    expect(byTitle.body.documents[0].preview).toBe('First letter, and a long opening line.');
    const rest = await server.request('GET', '/api/search/documents?sort=title&limit=2&offset=2', {
      token: fresh.token,
    });
    expect(rest.body.documents.map((d: { title: string }) => d.title)).toEqual(['gamma']);
    const past = await server.request('GET', '/api/search/documents?offset=10', { token: fresh.token });
    expect(past.body).toEqual({ total: 3, documents: [] });
    const created = await server.request('GET', '/api/search/documents?sort=created', { token: fresh.token });
    expect(created.body.documents.map((d: { title: string }) => d.title)).toEqual(['gamma', 'Alpha', 'beta']);
    expect(
      (await server.request('GET', '/api/search/documents?sort=size', { token: fresh.token })).status,
    ).toBe(400);
  });
});
