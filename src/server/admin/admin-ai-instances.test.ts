import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../test/fake-openai';
import type { FakeProvider } from '../test/fake-provider';
import { createTestDatabase, testDatabaseKind } from '../test/database';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

/**
 * Two instances on one PostgreSQL database: a provider set on one serves requests on the other without a
 * restart (LISTEN/NOTIFY), and with Redis the per-user rate limit is one budget across both. Runs on the
 * PostgreSQL project (the embedded database admits one process); the Redis part needs TEST_REDIS_URL.
 */
const enabled = testDatabaseKind() === 'postgres';
const redisUrl = process.env.TEST_REDIS_URL;
const ENCRYPTION_KEY = 'shared-encryption-key-for-both-test-instances';
const SAMPLE = 'Our team have finished the report and we think its good.';

async function eventually<T>(fn: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!enabled)('AI settings across two instances', () => {
  let fake: FakeProvider;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dirs: string[];
  let a: TestServer;
  let b: TestServer;
  let admin: TestUser;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    database = await createTestDatabase();
    dirs = [mkdtempSync(path.join(tmpdir(), 'qw-ai-a-')), mkdtempSync(path.join(tmpdir(), 'qw-ai-b-'))];
    const env = {
      ENCRYPTION_KEY,
      AI_LOCAL_SERVERS: 'off',
      // The fake provider listens on loopback, which the admin opens to AI providers explicitly.
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_PREFIX: `qw-ai-test-${process.pid}-${Date.now()}` } : {}),
    };
    a = await startTestServer({ env, storage: { dataDir: dirs[0]!, databaseUrl: database.databaseUrl } });
    b = await startTestServer({ env, storage: { dataDir: dirs[1]!, databaseUrl: database.databaseUrl } });
    admin = await createUser(a, { role: 'admin' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
    for (const dir of dirs ?? []) rmSync(dir, { recursive: true, force: true });
    await fake?.close();
  });

  it('a provider saved on one instance serves the next requests on the other', async () => {
    const member = await createUser(b);
    const before = await b.request('POST', '/api/ai/improve', {
      token: member.token,
      body: { text: SAMPLE },
    });
    expect(before.status).toBe(503);

    const put = await a.request('PUT', '/api/admin/ai', {
      token: admin.token,
      body: {
        providers: [
          {
            kind: 'openai-compatible',
            base_url: fake.baseUrl,
            model: 'shared-model',
            api_key: 'sk-shared-key-1',
          },
        ],
      },
    });
    expect(put.status).toBe(200);

    const after = await eventually(
      () => b.request('POST', '/api/ai/improve', { token: member.token, body: { text: SAMPLE } }),
      (res) => res.status === 200,
    );
    expect(after.status).toBe(200);
    expect(fake.requests.at(-1)!.body.model).toBe('shared-model');
    // Instance b opened the key a sealed (same ENCRYPTION_KEY).
    expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-shared-key-1');
    const view = await b.request('GET', '/api/admin/ai', { token: admin.token });
    expect(view.body.providers[0]).toMatchObject({ model: 'shared-model', has_key: true });
  });

  it.skipIf(!redisUrl)('with Redis, one user has one generative budget across both instances', async () => {
    const writer = await createUser(a);
    const send = (server: TestServer) =>
      server.request('POST', '/api/ai/improve', { token: writer.token, body: { text: 'Hi.' } });
    const results = await Promise.all([
      ...Array.from({ length: 15 }, () => send(a)),
      ...Array.from({ length: 15 }, () => send(b)),
    ]);
    expect(results.every((r) => r.status === 200)).toBe(true);
    const overA = await send(a);
    const overB = await send(b);
    expect(overA.status).toBe(429);
    expect(overB.status).toBe(429);
    expect(overB.headers.get('retry-after')).toBeTruthy();
  });
});
