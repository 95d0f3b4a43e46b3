import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { hashToken } from '../plugins';
import { API_TOKEN_PREFIX, API_TOKEN_REQUESTS_PER_MINUTE } from '../../shared/constants';
import type { ApiTokenCreated, ApiTokenList, ApiTokenScope } from '../../shared/schemas/api-tokens';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, admin] = await Promise.all([
    createUser(server),
    createUser(server),
    createUser(server, { role: 'admin' }),
  ]);
});
afterAll(() => server?.close());

const paragraph = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

async function makeToken(
  user: TestUser,
  scopes: ApiTokenScope[],
  extra: { expires_in_days?: number | null; name?: string } = {},
): Promise<ApiTokenCreated> {
  const res = await server.request('POST', '/api/me/api-tokens', {
    token: user.token,
    body: { name: extra.name ?? `token ${scopes.join('+')}`, scopes, ...extra },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as ApiTokenCreated;
}

async function newDocument(user: TestUser, title = 'Via the API') {
  const res = await server.request('POST', '/api/documents', {
    token: user.token,
    body: { title, content: paragraph('first words') },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe('making, listing and revoking tokens', () => {
  it('shows the secret once, stores only its hash, and lists the token without it', async () => {
    const created = await makeToken(alice, ['read'], { name: 'Backup script', expires_in_days: 30 });
    expect(created.token).toMatch(new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(created.hint).toBe(created.token.slice(-4));
    const expires = Date.parse(created.expires_at!);
    expect(Math.abs(expires - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);

    const [row] = await server.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row!.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token);

    const list = await server.request<ApiTokenList>('GET', '/api/me/api-tokens', { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.enabled).toBe(true);
    const listed = list.body.tokens.find((token) => token.id === created.id)!;
    expect(listed).toMatchObject({ name: 'Backup script', scopes: ['read'], last_used_at: null });
    expect(list.text).not.toContain(created.token);
    // Another user's list does not show it.
    const theirs = await server.request<ApiTokenList>('GET', '/api/me/api-tokens', { token: bob.token });
    expect(theirs.body.tokens.map((token) => token.id)).not.toContain(created.id);
  });

  it('refuses bad input with 400, never 500', async () => {
    for (const body of [
      { name: '', scopes: ['read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: ['read', 'read'] },
      { name: 'x', scopes: ['read'], expires_in_days: 0 },
      { name: 'x', scopes: ['read'], expires_in_days: 1.5 },
    ]) {
      const res = await server.request('POST', '/api/me/api-tokens', { token: alice.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('revokes at once: the next request with the token is 401', async () => {
    const created = await makeToken(alice, ['read']);
    const auth = { headers: { authorization: `Bearer ${created.token}` } };
    expect((await server.request('GET', '/api/documents', auth)).status).toBe(200);
    const revoked = await server.request('DELETE', `/api/me/api-tokens/${created.id}`, {
      token: alice.token,
    });
    expect(revoked.status).toBe(204);
    const after = await server.request('GET', '/api/documents', auth);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('invalid_api_token');
  });

  it("cannot revoke another user's token (404), nor a token that does not exist", async () => {
    const created = await makeToken(alice, ['read']);
    for (const id of [created.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await server.request('DELETE', `/api/me/api-tokens/${id}`, { token: bob.token });
      expect(res.status, id).toBe(404);
      expect(res.body.code).toBe('api_token_not_found');
    }
    const still = await server.request('GET', '/api/documents', {
      headers: { authorization: `Bearer ${created.token}` },
    });
    expect(still.status).toBe(200);
  });

  it('an expired token is refused with 401', async () => {
    const created = await makeToken(alice, ['read', 'write'], { expires_in_days: 1 });
    await server.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, created.id));
    const res = await server.request('GET', '/api/documents', {
      headers: { authorization: `Bearer ${created.token}` },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('api_token_expired');
  });

  it('an unknown token is 401', async () => {
    const res = await server.request('GET', '/api/documents', {
      headers: { authorization: `Bearer ${API_TOKEN_PREFIX}${'A'.repeat(43)}` },
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_api_token');
  });
});

describe('what a token may do', () => {
  it('a read token reads documents, search, versions and exports, and cannot write (403)', async () => {
    const id = await newDocument(alice, 'Readable');
    const { token } = await makeToken(alice, ['read']);
    const auth = (body?: unknown) => ({ headers: { authorization: `Bearer ${token}` }, body });

    const list = await server.request('GET', '/api/documents', auth());
    expect(list.status).toBe(200);
    expect(list.body.map((doc: { id: string }) => doc.id)).toContain(id);
    const one = await server.request('GET', `/api/documents/${id}`, auth());
    expect(one.status).toBe(200);
    expect(one.body.content).toEqual(paragraph('first words'));
    const head = await server.request('GET', `/api/documents/${id}?content=false`, auth());
    expect(head.status).toBe(200);
    expect(head.body).toMatchObject({ id, title: 'Readable' });
    expect(head.body).not.toHaveProperty('content');
    expect((await server.request('GET', `/api/search?q=first`, auth())).status).toBe(200);
    expect((await server.request('GET', `/api/search/documents`, auth())).status).toBe(200);
    expect((await server.request('GET', `/api/documents/${id}/versions`, auth())).status).toBe(200);
    expect((await server.request('GET', `/api/documents/${id}/export?format=md`, auth())).status).toBe(200);

    for (const [method, path, body] of [
      ['POST', '/api/documents', { title: 'nope' }],
      ['PATCH', `/api/documents/${id}`, { title: 'changed' }],
      ['DELETE', `/api/documents/${id}`, undefined],
      ['POST', `/api/documents/${id}/versions`, {}],
    ] as const) {
      const res = await server.request(method, path, auth(body));
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('insufficient_scope');
    }
    const unchanged = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
    expect(unchanged.body.title).toBe('Readable');
  });

  it('a write token creates, changes and deletes documents through the one writer', async () => {
    const { token } = await makeToken(alice, ['write']);
    const auth = (body?: unknown) => ({ headers: { authorization: `Bearer ${token}` }, body });
    const created = await server.request('POST', '/api/documents', auth({ title: 'Made by a script' }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.user_id).toBe(alice.id);
    const id = created.body.id as string;
    const changed = await server.request(
      'PATCH',
      `/api/documents/${id}`,
      auth({ content: paragraph('written by the script') }),
    );
    expect(changed.status, changed.text).toBe(200);
    const read = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
    expect(read.body.content).toEqual(paragraph('written by the script'));
    // If-Match is honoured for tokens as for sessions.
    const stale = await server.request('PATCH', `/api/documents/${id}`, {
      ...auth({ title: 'stale' }),
      headers: { authorization: `Bearer ${token}`, 'if-match': '"1"' },
    });
    expect(stale.status).toBe(412);
    expect((await server.request('DELETE', `/api/documents/${id}`, auth())).status).toBe(204);
    expect((await server.request('GET', `/api/documents/${id}`, { token: alice.token })).status).toBe(404);
  });

  it('a suggest-only token reads but its writes are refused with 403 api_token_suggest_only', async () => {
    const id = await newDocument(alice);
    const { token } = await makeToken(alice, ['suggest']);
    const auth = (body?: unknown) => ({ headers: { authorization: `Bearer ${token}` }, body });
    expect((await server.request('GET', `/api/documents/${id}`, auth())).status).toBe(200);
    const res = await server.request('PATCH', `/api/documents/${id}`, auth({ title: 'direct' }));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('api_token_suggest_only');
  });

  it("another user's document answers 404 through a token, for reads and writes alike", async () => {
    const bobsDocument = await newDocument(bob, 'Private');
    const { token } = await makeToken(alice, ['read', 'write']);
    const auth = (body?: unknown) => ({ headers: { authorization: `Bearer ${token}` }, body });
    for (const [method, path, body] of [
      ['GET', `/api/documents/${bobsDocument}`, undefined],
      ['PATCH', `/api/documents/${bobsDocument}`, { title: 'taken' }],
      ['DELETE', `/api/documents/${bobsDocument}`, undefined],
      ['GET', `/api/documents/${bobsDocument}/versions`, undefined],
      ['GET', `/api/documents/${bobsDocument}/export?format=txt`, undefined],
    ] as const) {
      const res = await server.request(method, path, auth(body));
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const list = await server.request('GET', '/api/documents', auth());
    expect(list.body.map((doc: { id: string }) => doc.id)).not.toContain(bobsDocument);
    const still = await server.request('GET', `/api/documents/${bobsDocument}`, { token: bob.token });
    expect(still.body.title).toBe('Private');
  });

  it('session-only routes refuse every token with 403 api_token_not_allowed', async () => {
    const { token } = await makeToken(alice, ['read', 'write', 'suggest']);
    const auth = (body?: unknown) => ({ headers: { authorization: `Bearer ${token}` }, body });
    for (const [method, path, body] of [
      ['GET', '/api/me/api-tokens', undefined],
      ['POST', '/api/me/api-tokens', { name: 'child', scopes: ['write'] }],
      ['PUT', '/api/auth/user', { password: 'a-new-password-123' }],
      ['PUT', '/api/auth/user', { email: 'taken@example.com' }],
      ['GET', '/api/auth/sessions', undefined],
      ['POST', '/api/stripe/create-portal', undefined],
      ['GET', '/api/stripe/subscription-status', undefined],
      ['GET', '/api/admin/ai', undefined],
      ['PUT', '/api/admin/api-tokens', { enabled: false }],
      ['GET', '/api/me/settings', undefined],
      ['POST', '/api/ai/improve', { text: 'x' }],
    ] as const) {
      const res = await server.request(method, path, auth(body));
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.code).toBe('api_token_not_allowed');
    }
    const tokens = await server.database.db.select().from(apiTokens).where(eq(apiTokens.name, 'child'));
    expect(tokens).toEqual([]);
  });

  it('records when a token was last used', async () => {
    const created = await makeToken(alice, ['read']);
    await server.request('GET', '/api/documents', { headers: { authorization: `Bearer ${created.token}` } });
    const list = await server.request<ApiTokenList>('GET', '/api/me/api-tokens', { token: alice.token });
    const listed = list.body.tokens.find((token) => token.id === created.id)!;
    expect(Date.now() - Date.parse(listed.last_used_at!)).toBeLessThan(60_000);
  });
});

describe('rate limits', () => {
  it('each token has its own budget, told in RateLimit-* headers, then 429', async () => {
    const first = await makeToken(bob, ['read']);
    const second = await makeToken(bob, ['read']);
    const call = (token: string) =>
      server.request('GET', '/api/documents', { headers: { authorization: `Bearer ${token}` } });
    const answer = await call(first.token);
    expect(answer.headers.get('ratelimit-limit')).toBe(String(API_TOKEN_REQUESTS_PER_MINUTE));
    expect(answer.headers.get('ratelimit-remaining')).toBe(String(API_TOKEN_REQUESTS_PER_MINUTE - 1));
    expect(Number(answer.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    for (let i = 1; i < API_TOKEN_REQUESTS_PER_MINUTE; i++) await call(first.token);
    const over = await call(first.token);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('over_request_rate_limit');
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    expect(over.headers.get('retry-after')).toBeTruthy();
    // The other token, and the user's session, are not affected.
    const other = await call(second.token);
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe(String(API_TOKEN_REQUESTS_PER_MINUTE - 1));
    expect((await server.request('GET', '/api/documents', { token: bob.token })).status).toBe(200);
  });
});

describe("the instance's switch", () => {
  it('members cannot turn tokens off; when an admin does, every token request is 403 api_tokens_disabled', async () => {
    const { token } = await makeToken(alice, ['read']);
    const auth = { headers: { authorization: `Bearer ${token}` } };
    const member = await server.request('PUT', '/api/admin/api-tokens', {
      token: alice.token,
      body: { enabled: false },
    });
    expect(member.status).toBe(403);
    expect(member.body.code).toBe('forbidden');

    const off = await server.request('PUT', '/api/admin/api-tokens', {
      token: admin.token,
      body: { enabled: false },
    });
    expect(off.status, off.text).toBe(200);
    try {
      const refused = await server.request('GET', '/api/documents', auth);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('api_tokens_disabled');
      const creating = await server.request('POST', '/api/me/api-tokens', {
        token: alice.token,
        body: { name: 'while off', scopes: ['read'] },
      });
      expect(creating.status).toBe(403);
      expect(creating.body.code).toBe('api_tokens_disabled');
      const list = await server.request<ApiTokenList>('GET', '/api/me/api-tokens', { token: alice.token });
      expect(list.body.enabled).toBe(false);
      // Sessions are unaffected.
      expect((await server.request('GET', '/api/documents', { token: alice.token })).status).toBe(200);
    } finally {
      const on = await server.request('PUT', '/api/admin/api-tokens', {
        token: admin.token,
        body: { enabled: true },
      });
      expect(on.status).toBe(200);
    }
    expect((await server.request('GET', '/api/documents', auth)).status).toBe(200);
    expect((await server.request('GET', '/api/admin/api-tokens', { token: admin.token })).body).toEqual({
      enabled: true,
    });
  });
});
