import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DOCUMENT_TITLE } from '../../shared/constants';
import { MAX_DOCUMENT_TITLE_LENGTH } from '../../shared/schemas/documents';
import type { RichTextDoc } from '../../shared/schemas/richText';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

const docWith = (words: string): RichTextDoc => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: words }] }],
});
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob] = await Promise.all([createUser(server), createUser(server)]);
});
afterAll(() => server?.close());

async function create(user: TestUser, body: unknown = {}) {
  const res = await server.request('POST', '/api/documents', { token: user.token, body });
  expect(res.status).toBe(201);
  return res.body as { id: string; title: string; content: RichTextDoc; updated_at: string };
}

describe('POST /api/documents', () => {
  it('creates an untitled, empty document by default and answers 201 with the full row and an ETag', async () => {
    const res = await server.request('POST', '/api/documents', { token: alice.token, body: {} });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: DEFAULT_DOCUMENT_TITLE,
      content: { type: 'doc', content: [] },
      user_id: alice.id,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      is_public: false,
    });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(res.headers.get('etag')).toBe('"1"');
  });

  it('creates with no body at all', async () => {
    const res = await server.request('POST', '/api/documents', { token: alice.token });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe(DEFAULT_DOCUMENT_TITLE);
  });

  it('keeps a given title (trimmed) and content; a blank title becomes the default', async () => {
    const created = await create(alice, { title: '  My essay  ', content: docWith('Hello') });
    expect(created.title).toBe('My essay');
    expect(created.content).toEqual(docWith('Hello'));
    expect((await create(alice, { title: '   ' })).title).toBe(DEFAULT_DOCUMENT_TITLE);
  });

  it('reads content sent as a JSON string', async () => {
    const created = await create(alice, { content: JSON.stringify(docWith('from a string')) });
    expect(created.content).toEqual(docWith('from a string'));
    const stored = await server.request('GET', `/api/documents/${created.id}`, { token: alice.token });
    expect(stored.body.content).toEqual(docWith('from a string'));
  });

  it('blanks a javascript: link href before storing it', async () => {
    const content = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            {
              type: 'text',
              text: 'evil',
              marks: [{ type: 'link', attrs: { href: ' JaVaScRiPt:alert(1)' } }],
            },
            { type: 'text', text: 'fine', marks: [{ type: 'link', attrs: { href: 'https://example.com' } }] },
          ],
        },
      ],
    };
    const created = await create(alice, { content });
    const stored = await server.request('GET', `/api/documents/${created.id}`, { token: alice.token });
    const [evil, fine] = stored.body.content.content[0].content;
    expect(evil.marks).toEqual([{ type: 'link', attrs: { href: '' } }]);
    expect(fine.marks).toEqual([{ type: 'link', attrs: { href: 'https://example.com' } }]);
  });

  it.each([
    ['an unknown node type', { type: 'doc', content: [{ type: 'iframe' }] }, /unknown node type "iframe"/],
    [
      'a heading of level 7',
      { type: 'doc', content: [{ type: 'heading', attrs: { level: 7 } }] },
      /"level" must be one of 1, 2, 3/,
    ],
    [
      'a bad alignment',
      { type: 'doc', content: [{ type: 'paragraph', attrs: { textAlign: 'diagonal' } }] },
      /"textAlign"/,
    ],
    ['a JSON string that is not JSON', '{"type": "doc"', /not valid JSON/],
    ['a number', 7, /must be a rich-text document/],
  ])('refuses content with %s: 400 validation_failed naming the problem', async (_name, content, pattern) => {
    const res = await server.request('POST', '/api/documents', { token: alice.token, body: { content } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.message).toMatch(/^content: /);
    expect(res.body.message).toMatch(pattern);
  });

  it('refuses a title that is not a string or too long', async () => {
    const wrongType = await server.request('POST', '/api/documents', {
      token: alice.token,
      body: { title: 5 },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/^title: /),
    });
    const tooLong = await server.request('POST', '/api/documents', {
      token: alice.token,
      body: { title: 'x'.repeat(MAX_DOCUMENT_TITLE_LENGTH + 1) },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toMatch(/at most 500 characters/);
    const atLimit = await create(alice, { title: 'y'.repeat(MAX_DOCUMENT_TITLE_LENGTH) });
    expect(atLimit.title).toHaveLength(MAX_DOCUMENT_TITLE_LENGTH);
  });

  it('answers 400 invalid_json to a malformed JSON body and 400 to a body that is not an object', async () => {
    const malformed = await server.request('POST', '/api/documents', {
      token: alice.token,
      rawBody: '{"title": ',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'invalid_json', message: expect.any(String) });
    const array = await server.request('POST', '/api/documents', { token: alice.token, body: ['x'] });
    expect(array.status).toBe(400);
    expect(array.body.code).toBe('validation_failed');
  });

  it('answers 413 with a JSON error to a body over MAX_BODY_BYTES', async () => {
    const text = 'x'.repeat(server.config.MAX_BODY_BYTES);
    const res = await server.request('POST', '/api/documents', {
      token: alice.token,
      body: { content: docWith(text) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'Request body is too large', code: 'payload_too_large' });
  });
});

describe('GET /api/documents', () => {
  it('lists only the caller’s documents, newest updated_at first, without content', async () => {
    const user = await createUser(server);
    const first = await create(user, { title: 'first' });
    const second = await create(user, { title: 'second' });
    const third = await create(user, { title: 'third' });
    await create(bob, { title: 'bob’s' });
    // Touching the first makes it the newest.
    const patched = await server.request('PATCH', `/api/documents/${first.id}`, {
      token: user.token,
      body: { title: 'first, edited' },
    });
    expect(patched.status).toBe(200);

    const res = await server.request('GET', '/api/documents', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.map((d: { id: string }) => d.id)).toEqual([first.id, third.id, second.id]);
    for (const row of res.body) {
      expect(Object.keys(row).sort()).toEqual([
        'created_at',
        'id',
        'is_public',
        'title',
        'updated_at',
        'user_id',
      ]);
      expect(row.user_id).toBe(user.id);
    }
    expect(res.body[0].title).toBe('first, edited');
    const times = res.body.map((d: { updated_at: string }) => Date.parse(d.updated_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('is empty for a new user', async () => {
    const user = await createUser(server);
    const res = await server.request('GET', '/api/documents', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe('GET /api/documents/:id', () => {
  it('returns the document with a strong quoted ETag of its version', async () => {
    const created = await create(alice, { title: 'read me', content: docWith('body') });
    const res = await server.request('GET', `/api/documents/${created.id}`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, content: docWith('body') });
    expect(res.headers.get('etag')).toBe('"1"');
  });

  it('answers 404 not_found for a missing document', async () => {
    const res = await server.request('GET', `/api/documents/${MISSING_ID}`, { token: alice.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Document not found', code: 'not_found' });
  });

  it('with ?content=false answers the document without its content, with the same ETag', async () => {
    const created = await create(alice, { title: 'a book', content: docWith('long body') });
    await server.request('PATCH', `/api/documents/${created.id}`, {
      token: alice.token,
      body: { title: 'the book' },
    });
    const res = await server.request('GET', `/api/documents/${created.id}?content=false`, {
      token: alice.token,
    });
    expect(res.status).toBe(200);
    const { content: _content, ...head } = created;
    expect(res.body).toEqual({ ...head, title: 'the book', updated_at: expect.any(String) });
    expect(res.body).not.toHaveProperty('content');
    expect(res.headers.get('etag')).toBe('"2"');
    const full = await server.request('GET', `/api/documents/${created.id}?content=true`, {
      token: alice.token,
    });
    expect(full.body).toEqual({ ...res.body, content: docWith('long body') });
  });

  it('sends a long document compressed when the client accepts it, and a short one as it is', async () => {
    const long = await create(alice, {
      title: 'a long one',
      content: docWith('Words upon words. '.repeat(2_000)),
    });
    const short = await create(alice, { title: 'a short one', content: docWith('A few words.') });
    const get = (id: string, encoding: string) =>
      server.app.inject({
        method: 'GET',
        url: `/api/documents/${id}`,
        headers: { authorization: `Bearer ${alice.token}`, 'accept-encoding': encoding },
      });
    for (const encoding of ['br', 'gzip']) {
      const res = await get(long.id, encoding);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toContain('application/json');
      const json = (encoding === 'br' ? brotliDecompressSync : gunzipSync)(res.rawPayload).toString('utf8');
      expect(res.rawPayload.byteLength).toBeLessThan(json.length / 4);
      expect(JSON.parse(json)).toEqual(long);
    }
    const plain = await get(long.id, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(long);
    const small = await get(short.id, 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual(short);
  });

  it('answers 400 to a content parameter other than true or false', async () => {
    const created = await create(alice);
    const res = await server.request('GET', `/api/documents/${created.id}?content=no`, {
      token: alice.token,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      message: expect.stringMatching(/^content: /),
    });
  });

  it('answers 400 for a malformed id', async () => {
    for (const id of ['not-a-uuid', '123', `${MISSING_ID}x`]) {
      const res = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/^id: /) });
    }
  });
});

describe('PATCH /api/documents/:id', () => {
  it('updates title and content, bumps the version and updated_at', async () => {
    const created = await create(alice, { title: 'draft' });
    const res = await server.request('PATCH', `/api/documents/${created.id}`, {
      token: alice.token,
      body: { title: ' final ', content: docWith('new text') },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: created.id,
      title: 'final',
      content: docWith('new text'),
      user_id: alice.id,
    });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    expect(res.headers.get('etag')).toBe('"2"');

    const titleOnly = await server.request('PATCH', `/api/documents/${created.id}`, {
      token: alice.token,
      body: { title: 'renamed' },
    });
    expect(titleOnly.body).toMatchObject({ title: 'renamed', content: docWith('new text') });
    expect(titleOnly.headers.get('etag')).toBe('"3"');
    expect(Date.parse(titleOnly.body.updated_at)).toBeGreaterThan(Date.parse(res.body.updated_at));

    const stored = await server.request('GET', `/api/documents/${created.id}`, { token: alice.token });
    expect(stored.body).toEqual(titleOnly.body);
  });

  it('accepts content as a JSON string and stores an emptied title as "Untitled Document"', async () => {
    const created = await create(alice, { title: 'x' });
    const res = await server.request('PATCH', `/api/documents/${created.id}`, {
      token: alice.token,
      body: { title: '', content: JSON.stringify(docWith('stringified')) },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Untitled Document', content: docWith('stringified') });
  });

  it('refuses invalid content, wrong types and an empty change with 400, changing nothing', async () => {
    const created = await create(alice, { title: 'keep', content: docWith('keep me') });
    const bodies = [
      { content: { type: 'doc', content: [{ type: 'heading', attrs: { level: 7 } }] } },
      { content: { type: 'doc', content: [{ type: 'script' }] } },
      { title: 42 },
      { title: null },
      { content: null },
      {},
      { is_public: true },
    ];
    for (const body of bodies) {
      const res = await server.request('PATCH', `/api/documents/${created.id}`, { token: alice.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const malformed = await server.request('PATCH', `/api/documents/${created.id}`, {
      token: alice.token,
      rawBody: '{"title":',
    });
    expect(malformed.status).toBe(400);
    const stored = await server.request('GET', `/api/documents/${created.id}`, { token: alice.token });
    expect(stored.body).toMatchObject({ title: 'keep', content: docWith('keep me') });
    expect(stored.headers.get('etag')).toBe('"1"');
  });

  it('applies a PATCH whose If-Match is the current ETag', async () => {
    const created = await create(alice, { content: docWith('v1') });
    const etag = (
      await server.request('GET', `/api/documents/${created.id}`, { token: alice.token })
    ).headers.get('etag')!;
    const res = await server.request('PATCH', `/api/documents/${created.id}`, {
      token: alice.token,
      headers: { 'if-match': etag },
      body: { content: docWith('v2') },
    });
    expect(res.status).toBe(200);
    expect(res.body.content).toEqual(docWith('v2'));
    expect(res.headers.get('etag')).toBe('"2"');
    const any = await server.request('PATCH', `/api/documents/${created.id}`, {
      token: alice.token,
      headers: { 'if-match': '*' },
      body: { title: 'star' },
    });
    expect(any.status).toBe(200);
    const list = await server.request('PATCH', `/api/documents/${created.id}`, {
      token: alice.token,
      headers: { 'if-match': '"1", "3"' },
      body: { title: 'listed' },
    });
    expect(list.status).toBe(200);
    expect(list.headers.get('etag')).toBe('"4"');
  });

  it('answers 412 precondition_failed to a stale If-Match and leaves the document unchanged', async () => {
    const created = await create(alice, { title: 'shared', content: docWith('original') });
    const staleEtag = '"1"';
    const first = await server.request('PATCH', `/api/documents/${created.id}`, {
      token: alice.token,
      headers: { 'if-match': staleEtag },
      body: { content: docWith('typed meanwhile') },
    });
    expect(first.status).toBe(200);

    for (const ifMatch of [staleEtag, 'W/"2"', '"abc"', '']) {
      const res = await server.request('PATCH', `/api/documents/${created.id}`, {
        token: alice.token,
        headers: { 'if-match': ifMatch },
        body: { title: 'overwritten', content: docWith('old copy') },
      });
      expect(res.status, ifMatch).toBe(412);
      expect(res.body.code).toBe('precondition_failed');
    }
    const stored = await server.request('GET', `/api/documents/${created.id}`, { token: alice.token });
    expect(stored.body).toMatchObject({ title: 'shared', content: docWith('typed meanwhile') });
    expect(stored.headers.get('etag')).toBe('"2"');
  });

  it('lets exactly one of four concurrent PATCHes with the same If-Match win', async () => {
    const created = await create(alice, { content: docWith('base') });
    const results = await Promise.all(
      ['A', 'B', 'C', 'D'].map((who) =>
        server.request('PATCH', `/api/documents/${created.id}`, {
          token: alice.token,
          headers: { 'if-match': '"1"' },
          body: { content: docWith(who) },
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412]);
    const winner = results.find((r) => r.status === 200)!;
    const stored = await server.request('GET', `/api/documents/${created.id}`, { token: alice.token });
    expect(stored.body.content).toEqual(winner.body.content);
    expect(stored.headers.get('etag')).toBe('"2"');
  });

  it('answers 404 (not 412) to If-Match on a missing document', async () => {
    const res = await server.request('PATCH', `/api/documents/${MISSING_ID}`, {
      token: alice.token,
      headers: { 'if-match': '"1"' },
      body: { title: 'x' },
    });
    expect(res.status).toBe(404);
  });
});

describe('DELETE /api/documents/:id', () => {
  it('moves the document to the trash (204), after which it is 404 and gone from the list', async () => {
    const created = await create(alice, { title: 'to delete' });
    const res = await server.request('DELETE', `/api/documents/${created.id}`, { token: alice.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await server.request('GET', `/api/documents/${created.id}`, { token: alice.token })).status).toBe(
      404,
    );
    expect(
      (await server.request('DELETE', `/api/documents/${created.id}`, { token: alice.token })).status,
    ).toBe(404);
    const list = await server.request('GET', '/api/documents', { token: alice.token });
    expect(list.body.map((d: { id: string }) => d.id)).not.toContain(created.id);
  });
});

describe('ownership and authentication', () => {
  it('answers 404 to another user’s get, patch and delete, and changes nothing', async () => {
    const created = await create(alice, { title: 'private', content: docWith('secret') });
    const url = `/api/documents/${created.id}`;
    for (const asked of [url, `${url}?content=false`]) {
      const get = await server.request('GET', asked, { token: bob.token });
      expect(get.status).toBe(404);
      expect(get.body).toEqual({ message: 'Document not found', code: 'not_found' });
    }
    const patch = await server.request('PATCH', url, { token: bob.token, body: { title: 'pwned' } });
    expect(patch.status).toBe(404);
    const patchIfMatch = await server.request('PATCH', url, {
      token: bob.token,
      headers: { 'if-match': '"1"' },
      body: { title: 'pwned' },
    });
    expect(patchIfMatch.status).toBe(404);
    const del = await server.request('DELETE', url, { token: bob.token });
    expect(del.status).toBe(404);
    const bobsList = await server.request('GET', '/api/documents', { token: bob.token });
    expect(bobsList.body.map((d: { id: string }) => d.id)).not.toContain(created.id);

    const stored = await server.request('GET', url, { token: alice.token });
    expect(stored.body).toMatchObject({ title: 'private', content: docWith('secret') });
    expect(stored.headers.get('etag')).toBe('"1"');
  });

  it('answers 401 session_missing without a token and 401 with a forged one', async () => {
    const created = await create(alice);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/documents'],
      ['POST', '/api/documents', {}],
      ['GET', `/api/documents/${created.id}`],
      ['PATCH', `/api/documents/${created.id}`, { title: 'x' }],
      ['DELETE', `/api/documents/${created.id}`],
    ];
    for (const [method, url, body] of calls) {
      const anonymous = await server.request(method, url, { body });
      expect(anonymous.status, `${method} ${url}`).toBe(401);
      expect(anonymous.body).toEqual({ message: 'Auth session missing!', code: 'session_missing' });
      const forged = await server.request(method, url, { body, token: `${alice.token.slice(0, -4)}AAAA` });
      expect(forged.status, `${method} ${url}`).toBe(401);
    }
    expect((await server.request('GET', `/api/documents/${created.id}`, { token: alice.token })).status).toBe(
      200,
    );
  });
});

describe('signed-out sessions', () => {
  it('answers 401 to GET and PATCH with the token of a signed-out session, and PATCH changes nothing', async () => {
    const user = await createUser(server);
    const created = await create(user, { title: 'mine', content: docWith('kept') });
    const url = `/api/documents/${created.id}`;
    expect((await server.request('GET', url, { token: user.token })).status).toBe(200);
    const logout = await server.request('POST', '/api/auth/logout?scope=local', { token: user.token });
    expect(logout.status).toBe(204);

    for (const asked of [url, `${url}?content=false`]) {
      const get = await server.request('GET', asked, { token: user.token });
      expect(get.status).toBe(401);
      expect(get.body.code).toBe('session_not_found');
    }
    for (const headers of [{}, { 'if-match': '"1"' }, { 'if-match': '"7"' }] as Record<string, string>[]) {
      const patch = await server.request('PATCH', url, {
        token: user.token,
        headers,
        body: { title: 'after sign-out' },
      });
      expect(patch.status).toBe(401);
    }
    const missing = await server.request('GET', `/api/documents/${MISSING_ID}`, { token: user.token });
    expect(missing.status).toBe(401);
    const { documents } = await import('../db/schema');
    const { eq } = await import('drizzle-orm');
    const [row] = await server.database.db
      .select({ title: documents.title, version: documents.version })
      .from(documents)
      .where(eq(documents.id, created.id));
    expect(row).toEqual({ title: 'mine', version: 1 });
  });
});

describe('documents event stream (app.deps.documentEvents)', () => {
  it('announces content, title and trash changes after they are committed, with their source', async () => {
    const events: string[] = [];
    const stream = server.app.deps.documentEvents;
    const unsubscribe = [
      stream.on('content.changed', async (e) => {
        const stored = await server.request('GET', `/api/documents/${e.documentId}`, { token: alice.token });
        expect(stored.body.content).toEqual(docWith('live')); // already committed
        events.push(`content:${e.source}:${e.version}`);
      }),
      stream.on('title.changed', (e) => void events.push(`title:${e.title}:${e.version}`)),
      stream.on('trashed', () => void events.push('trashed')),
    ];
    try {
      const created = await create(alice);
      const url = `/api/documents/${created.id}`;
      await server.request('PATCH', url, { token: alice.token, body: { content: docWith('live') } });
      await server.request('PATCH', url, { token: alice.token, body: { title: 'T' } });
      await server.request('PATCH', url, {
        token: alice.token,
        headers: { 'if-match': '"1"' },
        body: { title: 'stale' },
      });
      await server.request('DELETE', url, { token: alice.token });
      expect(events).toEqual(['content:rest:2', 'title:T:3', 'trashed']);
    } finally {
      for (const off of unsubscribe) off();
    }
  });

  it('announces nothing for a content replacement the asker may not make', async () => {
    const replacing: string[] = [];
    const off = server.app.deps.documentEvents.on('content.replacing', (e) => void replacing.push(e.userId));
    try {
      const created = await create(alice, { title: 'private', content: docWith('secret') });
      const refused = await server.request('PATCH', `/api/documents/${created.id}`, {
        token: bob.token,
        body: { content: docWith('pwned') },
      });
      expect(refused.status).toBe(404);
      expect(replacing).toEqual([]);
      await server.request('PATCH', `/api/documents/${created.id}`, {
        token: alice.token,
        body: { content: docWith('mine') },
      });
      expect(replacing).toEqual([alice.id]);
    } finally {
      off();
    }
  });

  it('clears the stored Yjs state when REST replaces the content, so the live layer rebuilds from it', async () => {
    const { documents } = await import('../db/schema');
    const { eq } = await import('drizzle-orm');
    const created = await create(alice, { content: docWith('a') });
    await server.database.db
      .update(documents)
      .set({ ydocState: new Uint8Array([1, 2, 3]) })
      .where(eq(documents.id, created.id));
    await server.request('PATCH', `/api/documents/${created.id}`, {
      token: alice.token,
      body: { title: 'only title' },
    });
    const [afterTitle] = await server.database.db
      .select({ state: documents.ydocState })
      .from(documents)
      .where(eq(documents.id, created.id));
    expect(afterTitle?.state).not.toBeNull();
    await server.request('PATCH', `/api/documents/${created.id}`, {
      token: alice.token,
      body: { content: docWith('b') },
    });
    const [afterContent] = await server.database.db
      .select({ state: documents.ydocState })
      .from(documents)
      .where(eq(documents.id, created.id));
    expect(afterContent?.state).toBeNull();
  });
});

describe('plan limits', () => {
  it('refuses a document beyond the plan’s count with 403 plan_limit when limits are enforced', async () => {
    const limited = await startTestServer({ env: { ENFORCE_PLAN_LIMITS: 'true' } });
    try {
      const user = await createUser(limited, { plan: 'gratis' });
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          limited.request('POST', '/api/documents', { token: user.token, body: {} }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 403, 403]);
      expect(results.find((r) => r.status === 403)!.body).toMatchObject({ code: 'plan_limit', limit: 3 });
      const list = await limited.request('GET', '/api/documents', { token: user.token });
      expect(list.body).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });
});
