import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../shared/constants';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

let server: TestServer;

beforeAll(async () => {
  // Webhooks may be made for this address (nothing listens there; no test here sends to it).
  server = await startTestServer({ env: { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1:9' } });
});
afterAll(() => server?.close());

const keyed = (key: string) => ({ 'idempotency-key': key });

async function documentIds(user: TestUser): Promise<string[]> {
  const res = await server.request('GET', '/api/documents?limit=200', { token: user.token });
  expect(res.status).toBe(200);
  return (res.body as { id: string }[]).map((row) => row.id);
}

async function rowsOfKey(key: string): Promise<number> {
  const [row] = (await server.database.exec(
    'SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1',
    [key],
  )) as { n: number }[];
  return row!.n;
}

describe('Idempotency-Key on POST /api/documents', () => {
  it('replays the first answer to a retry with the same key and body, and creates one document', async () => {
    const user = await createUser(server);
    const body = { title: 'Once only' };
    const first = await server.request('POST', '/api/documents', {
      token: user.token,
      body,
      headers: keyed('k-1'),
    });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await server.request('POST', '/api/documents', {
      token: user.token,
      body,
      headers: keyed('k-1'),
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await documentIds(user)).toEqual([first.body.id]);
  });

  it('refuses the same key with another body with 422 idempotency_key_reused, creating nothing', async () => {
    const user = await createUser(server);
    const first = await server.request('POST', '/api/documents', {
      token: user.token,
      body: { title: 'A' },
      headers: keyed('k-2'),
    });
    expect(first.status).toBe(201);
    const other = await server.request('POST', '/api/documents', {
      token: user.token,
      body: { title: 'B' },
      headers: keyed('k-2'),
    });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ message: expect.any(String), code: 'idempotency_key_reused' });
    const otherRoute = await server.request('POST', '/api/folders', {
      token: user.token,
      body: { title: 'A' },
      headers: keyed('k-2'),
    });
    expect(otherRoute.status).toBe(422);
    expect(await documentIds(user)).toEqual([first.body.id]);
  });

  it('keeps keys apart per user: the same key is another request for someone else', async () => {
    const [alice, bob] = await Promise.all([createUser(server), createUser(server)]);
    const a = await server.request('POST', '/api/documents', {
      token: alice.token,
      body: { title: 'Mine' },
      headers: keyed('shared-key'),
    });
    const b = await server.request('POST', '/api/documents', {
      token: bob.token,
      body: { title: 'Mine' },
      headers: keyed('shared-key'),
    });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.id).not.toBe(a.body.id);
    expect(b.body.user_id).toBe(bob.id);
  });

  it('creates one document from two identical requests sent at once', async () => {
    const user = await createUser(server);
    const send = () =>
      server.request('POST', '/api/documents', {
        token: user.token,
        body: { title: 'Raced' },
        headers: keyed('k-race'),
      });
    const answers = await Promise.all([send(), send(), send()]);
    for (const answer of answers) expect([201, 409]).toContain(answer.status);
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => answer.body.id)).size).toBe(1);
    for (const answer of answers.filter((a) => a.status === 409))
      expect(answer.body.code).toBe('idempotency_request_in_progress');
    expect(await documentIds(user)).toEqual([created[0]!.body.id]);
    // Once the first has answered, a retry gets its answer.
    const retry = await send();
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.id).toBe(created[0]!.body.id);
  });

  it('answers 409 idempotency_request_in_progress while the first request with the key is still running', async () => {
    const user = await createUser(server);
    // What the first request left while it runs: the key claimed, no answer yet.
    await server.database.exec(
      `INSERT INTO idempotency_keys (user_id, key, method, path, body_hash, expires_at)
       VALUES ($1, 'k-running', 'POST', '/api/documents', $2, now() + interval '1 hour')`,
      [
        user.id,
        createHash('sha256')
          .update(JSON.stringify({ title: 'Slow' }))
          .digest('hex'),
      ],
    );
    const running = await server.request('POST', '/api/documents', {
      token: user.token,
      body: { title: 'Slow' },
      headers: keyed('k-running'),
    });
    expect(running.status).toBe(409);
    expect(running.body).toEqual({ message: expect.any(String), code: 'idempotency_request_in_progress' });
    expect(await documentIds(user)).toEqual([]);
  });

  it('lets the key go when the request is refused, so a corrected retry with it works', async () => {
    const user = await createUser(server);
    const bad = await server.request('POST', '/api/documents', {
      token: user.token,
      body: { title: 'x'.repeat(10_000) },
      headers: keyed('k-fail'),
    });
    expect(bad.status).toBe(400);
    expect(await rowsOfKey('k-fail')).toBe(0);
    const again = await server.request('POST', '/api/documents', {
      token: user.token,
      body: { title: 'x'.repeat(10_000) },
      headers: keyed('k-fail'),
    });
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a key longer than 255 characters, or blank, with 400', async () => {
    const user = await createUser(server);
    for (const key of ['k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH + 1), ' ']) {
      const res = await server.request('POST', '/api/documents', {
        token: user.token,
        body: {},
        headers: keyed(key),
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_idempotency_key');
    }
    const longest = await server.request('POST', '/api/documents', {
      token: user.token,
      body: {},
      headers: keyed('k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH)),
    });
    expect(longest.status).toBe(201);
    expect(await documentIds(user)).toHaveLength(1);
  });

  it('uses a key again once its day is over (expired rows are dropped)', async () => {
    const user = await createUser(server);
    const first = await server.request('POST', '/api/documents', {
      token: user.token,
      body: { title: 'Day one' },
      headers: keyed('k-old'),
    });
    await server.database.exec(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = 'k-old'`,
    );
    const later = await server.request('POST', '/api/documents', {
      token: user.token,
      body: { title: 'Day one' },
      headers: keyed('k-old'),
    });
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.id).not.toBe(first.body.id);
  });

  it('leaves requests without a key alone: each creates', async () => {
    const user = await createUser(server);
    await server.request('POST', '/api/documents', { token: user.token, body: { title: 'Same' } });
    await server.request('POST', '/api/documents', { token: user.token, body: { title: 'Same' } });
    expect(await documentIds(user)).toHaveLength(2);
  });
});

describe('Idempotency-Key on the other creates', () => {
  it('replays folder, API token and webhook creates', async () => {
    const user = await createUser(server);
    const cases: [string, unknown][] = [
      ['/api/folders', { name: 'Drafts' }],
      ['/api/me/api-tokens', { name: 'script', scopes: ['read'] }],
      ['/api/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['document.created'] }],
    ];
    for (const [path, body] of cases) {
      const first = await server.request('POST', path, {
        token: user.token,
        body,
        headers: keyed(`k${path}`),
      });
      expect(first.status, path).toBe(201);
      const again = await server.request('POST', path, {
        token: user.token,
        body,
        headers: keyed(`k${path}`),
      });
      expect(again.status, path).toBe(201);
      expect(again.headers.get('idempotent-replayed'), path).toBe('true');
      expect(again.body, path).toEqual(first.body);
    }
    expect((await server.request('GET', '/api/folders', { token: user.token })).body.folders).toHaveLength(1);
    expect(
      (await server.request('GET', '/api/me/api-tokens', { token: user.token })).body.tokens,
    ).toHaveLength(1);
    expect((await server.request('GET', '/api/webhooks', { token: user.token })).body.webhooks).toHaveLength(
      1,
    );
  });
});
