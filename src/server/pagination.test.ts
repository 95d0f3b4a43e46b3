import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_LIST_DEFAULT_LIMIT, API_LIST_MAX_LIMIT } from '../shared/constants';
import { encodeCursor } from './pagination';
import { createUser, type TestUser } from './test/factories';
import { startTestServer, type TestServer } from './test/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

function nextLink(headers: Headers): string | null {
  const link = headers.get('link');
  if (!link) return null;
  const match = /^<([^>]+)>; rel="next"$/.exec(link);
  expect(match, `Link header ${link}`).not.toBeNull();
  return match![1]!;
}

async function createDocuments(user: TestUser, count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await server.request('POST', '/api/documents', {
      token: user.token,
      body: { title: `${prefix} ${i}` },
    });
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

describe('GET /api/documents pages', () => {
  it('walks 25 documents ten at a time while one is added between pages: none twice, none missing', async () => {
    const user = await createUser(server);
    const existing = await createDocuments(user, 25, 'Doc');
    const seen: string[] = [];
    const pageSizes: number[] = [];
    let path: string | null = '/api/documents?limit=10';
    let added = 0;
    while (path) {
      const res = await server.request('GET', path, { token: user.token });
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      pageSizes.push(res.body.length);
      seen.push(...(res.body as { id: string }[]).map((row) => row.id));
      path = nextLink(res.headers);
      if (path) {
        expect(path).toMatch(/^\/api\/documents\?limit=10&cursor=/);
        await createDocuments(user, 1, `Added ${added++}`);
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of existing) expect(seen).toContain(id);
    expect(pageSizes).toEqual([10, 10, 5]);
    expect(added).toBe(2);
  });

  it('answers most recently changed first, and a changed document moves to the front of a fresh walk', async () => {
    const user = await createUser(server);
    const [first, second, third] = await createDocuments(user, 3, 'Order');
    expect(
      (await server.request('GET', '/api/documents', { token: user.token })).body.map(
        (r: { id: string }) => r.id,
      ),
    ).toEqual([third, second, first]);
    await server.request('PATCH', `/api/documents/${first}`, {
      token: user.token,
      body: { title: 'Changed' },
    });
    const res = await server.request('GET', '/api/documents?limit=1', { token: user.token });
    expect(res.body.map((r: { id: string }) => r.id)).toEqual([first]);
    const rest = await server.request('GET', nextLink(res.headers)!, { token: user.token });
    expect(rest.body.map((r: { id: string }) => r.id)).toEqual([third]);
  });

  it('gives no Link on the last page, and the default page size without a limit', async () => {
    const user = await createUser(server);
    await createDocuments(user, 2, 'Few');
    const res = await server.request('GET', '/api/documents', { token: user.token });
    expect(res.body).toHaveLength(2);
    expect(res.headers.get('link')).toBeNull();
    expect(API_LIST_DEFAULT_LIMIT).toBeLessThanOrEqual(API_LIST_MAX_LIMIT);
  });

  it('refuses a cursor it did not give out with 400 invalid_cursor, and a bad limit with 400', async () => {
    const user = await createUser(server);
    for (const cursor of [
      'garbage!',
      'bm90IGpzb24',
      encodeCursor({ at: '12', key: 'x' }).slice(0, 5),
      Buffer.from(JSON.stringify(['1', "x'; drop table documents; --"])).toString('base64url'),
      Buffer.from(JSON.stringify({ at: '1', key: 'a' })).toString('base64url'),
      'x'.repeat(500),
    ]) {
      const res = await server.request('GET', `/api/documents?cursor=${encodeURIComponent(cursor)}`, {
        token: user.token,
      });
      expect(res.status, cursor).toBe(400);
      expect(res.body).toEqual({ message: expect.any(String), code: 'invalid_cursor' });
    }
    for (const limit of ['0', `${API_LIST_MAX_LIMIT + 1}`, 'ten']) {
      const res = await server.request('GET', `/api/documents?limit=${limit}`, { token: user.token });
      expect(res.status, limit).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect(
      (await server.request('GET', `/api/documents?limit=${API_LIST_MAX_LIMIT}`, { token: user.token }))
        .status,
    ).toBe(200);
  });
});

describe('other paged lists', () => {
  it('pages the versions of a document, newest first, without repeats', async () => {
    const user = await createUser(server);
    const [id] = await createDocuments(user, 1, 'Versioned');
    const names: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await server.request('POST', `/api/documents/${id}/versions`, {
        token: user.token,
        body: { name: `v${i}` },
      });
      expect(res.status).toBe(201);
      names.push(`v${i}`);
    }
    const seen: string[] = [];
    let path: string | null = `/api/documents/${id}/versions?limit=2`;
    while (path) {
      const res = await server.request('GET', path, { token: user.token });
      expect(res.status).toBe(200);
      seen.push(...(res.body as { name: string | null }[]).map((v) => v.name ?? ''));
      path = nextLink(res.headers);
    }
    expect(seen.filter((name) => name.startsWith('v'))).toEqual([...names].reverse());
    expect(new Set(seen).size).toBe(seen.length);
    const bad = await server.request('GET', `/api/documents/${id}/versions?cursor=nope`, {
      token: user.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_cursor');
  });

  it('pages the API tokens, keeping the body { enabled, tokens }', async () => {
    const user = await createUser(server);
    for (let i = 0; i < 3; i++) {
      const res = await server.request('POST', '/api/me/api-tokens', {
        token: user.token,
        body: { name: `t${i}`, scopes: ['read'] },
      });
      expect(res.status).toBe(201);
    }
    const first = await server.request('GET', '/api/me/api-tokens?limit=2', { token: user.token });
    expect(first.body.enabled).toBe(true);
    expect(first.body.tokens.map((t: { name: string }) => t.name)).toEqual(['t2', 't1']);
    const second = await server.request('GET', nextLink(first.headers)!, { token: user.token });
    expect(second.body.tokens.map((t: { name: string }) => t.name)).toEqual(['t0']);
    expect(second.headers.get('link')).toBeNull();
  });

  it('refuses a bad cursor on the webhook delivery log', async () => {
    const user = await createUser(server);
    const res = await server.request(
      'GET',
      `/api/webhooks/00000000-0000-4000-8000-000000000000/deliveries?cursor=%25`,
      {
        token: user.token,
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_cursor');
  });
});
