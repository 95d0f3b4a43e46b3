import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import IORedis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKind } from '../test/database';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { connectCollabClient, waitFor, type CollabClient } from './testing';

/**
 * Scale-out: two server processes' worth of app (two ports, one PostgreSQL database) relay live edits
 * through Redis. Runs whenever TEST_REDIS_URL is set on the PostgreSQL project (CI), and then fails —
 * never skips — if Redis is down. Without TEST_REDIS_URL it is skipped (one process needs no Redis).
 */
const redisUrl = process.env.TEST_REDIS_URL;
const enabled = Boolean(redisUrl) && testDatabaseKind() === 'postgres';

describe.skipIf(!enabled)('two instances sharing live documents through Redis', () => {
  const prefix = `qw-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const dirs: string[] = [];
  const clients: CollabClient[] = [];
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: TestServer;
  let b: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    database = await createTestDatabase();
    const start = () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'qw-collab-redis-'));
      dirs.push(dataDir);
      return startTestServer({
        env: { REDIS_URL: redisUrl!, REDIS_PREFIX: prefix },
        storage: { dataDir, databaseUrl: database.databaseUrl },
      });
    };
    a = await start();
    b = await start();
    user = await createUser(a);
  });

  afterAll(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await a?.close();
    await b?.close();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    const redis = new IORedis(redisUrl!);
    try {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
  });

  async function connect(server: TestServer, documentId: string) {
    const client = await connectCollabClient({ serverUrl: server.url, documentId, token: user.token });
    clients.push(client);
    return client;
  }

  async function createDocument(): Promise<string> {
    const res = await a.request('POST', '/api/documents', { token: user.token, body: {} });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  it('relays edits between clients connected to different instances, both ways', async () => {
    const id = await createDocument();
    const onA = await connect(a, id);
    const onB = await connect(b, id);
    onA.appendParagraph('typed on A');
    await waitFor(() => onB.paragraphs().includes('typed on A'), 5_000, 'A → B');
    onB.appendParagraph('typed on B');
    await waitFor(() => onA.paragraphs().includes('typed on B'), 5_000, 'B → A');
    expect(onA.paragraphs()).toEqual(onB.paragraphs());
  });

  it('a REST write to one instance reaches a client connected to the other', async () => {
    const id = await createDocument();
    const onB = await connect(b, id);
    onB.appendParagraph('live on B');
    const res = await a.request('PATCH', `/api/documents/${id}`, {
      token: user.token,
      body: {
        content: {
          type: 'doc',
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'from the API' }] }],
        },
        title: 'Renamed',
      },
    });
    expect(res.status).toBe(200);
    await waitFor(() => onB.paragraphs().join('|') === 'from the API', 5_000, 'REST content on B');
    await waitFor(
      () => onB.messages.some((m) => m.type === 'title' && m.title === 'Renamed'),
      5_000,
      'title on B',
    );
  });
});
