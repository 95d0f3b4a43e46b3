import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RichTextDoc } from '../shared/schemas/richText';
import {
  childServerEnv,
  killAllChildServers,
  spawnChildServer,
  type ChildServer,
} from './reliability/child-server';
import { createTestDatabase, testDatabaseKind, type TestDatabaseHandle } from './test/database';

/**
 * Issue 2 item 4: the real server (src/server/main.ts) as a child process on a data directory (PGlite) or
 * its own PostgreSQL database. It is killed with SIGKILL in the middle of a burst of writes and restarted;
 * every write that was acknowledged with a 2xx must be there. Also: a second server on the same PGlite
 * directory is refused with a clear message, and SIGTERM drains requests and exits 0 without losing any.
 */

// Fixed, so tokens stay valid across restarts (as they do in production, where it is kept in DATA_DIR).
const JWT_SECRET = 'crash-test-secret-that-is-long-enough-for-hs256';
const START_TIMEOUT_MS = 60_000;
const kind = testDatabaseKind();

const docWith = (words: string): RichTextDoc => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: words }] }],
});

async function call(server: ChildServer, token: string, method: string, urlPath: string, body?: unknown) {
  const response = await fetch(server.url + urlPath, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

interface BurstResult {
  /** Per patched document: the highest n whose PATCH was acknowledged (0 = none). */
  lastPatchAck: Map<string, number>;
  /** Documents whose POST was acknowledged, with the title they were created with. */
  created: { id: string; title: string }[];
}

/**
 * Writers hammer the server: one sequential PATCH loop per document in `docIds` and `creators` POST loops.
 * After `stopAfterAcks` acknowledgements, `stop()` is called while requests are still in flight; the loops
 * end at their first failed request.
 */
async function burst(
  server: ChildServer,
  token: string,
  docIds: string[],
  options: { tag: string; creators: number; stopAfterAcks: number; stop: () => void },
): Promise<BurstResult> {
  const result: BurstResult = { lastPatchAck: new Map(docIds.map((id) => [id, 0])), created: [] };
  let acks = 0;
  let stopped = false;
  const acked = () => {
    if (++acks === options.stopAfterAcks) {
      stopped = true;
      options.stop();
    }
  };
  const MAX_PER_WORKER = 400; // a bound in case the server never stops answering
  const patcher = async (id: string) => {
    for (let n = 1; n <= MAX_PER_WORKER; n++) {
      const title = `${options.tag}-${id.slice(0, 8)}-${n}`;
      try {
        const res = await call(server, token, 'PATCH', `/api/documents/${id}`, {
          title,
          content: docWith(title),
        });
        if (res.status !== 200) {
          if (stopped) return;
          throw new Error(`PATCH answered ${res.status}: ${JSON.stringify(res.body)}`);
        }
        result.lastPatchAck.set(id, n);
        acked();
      } catch (error) {
        if (stopped) return;
        throw error;
      }
    }
  };
  const creator = async (worker: number) => {
    for (let n = 1; n <= MAX_PER_WORKER; n++) {
      const title = `${options.tag}-new-${worker}-${n}`;
      try {
        const res = await call(server, token, 'POST', '/api/documents', { title, content: docWith(title) });
        if (res.status !== 201) {
          if (stopped) return;
          throw new Error(`POST answered ${res.status}: ${JSON.stringify(res.body)}`);
        }
        result.created.push({ id: res.body.id, title });
        acked();
      } catch (error) {
        if (stopped) return;
        throw error;
      }
    }
  };
  await Promise.all([
    ...docIds.map(patcher),
    ...Array.from({ length: options.creators }, (_, worker) => creator(worker)),
  ]);
  expect(stopped, 'the burst reached its stop point').toBe(true);
  return result;
}

/** Every acknowledged write of a burst is in the restarted server. */
async function expectAllAcknowledged(server: ChildServer, token: string, result: BurstResult, tag: string) {
  for (const [id, lastAck] of result.lastPatchAck) {
    const res = await call(server, token, 'GET', `/api/documents/${id}`);
    expect(res.status).toBe(200);
    const match = new RegExp(`^${tag}-${id.slice(0, 8)}-(\\d+)$`).exec(res.body.title);
    if (lastAck > 0) {
      expect(match, `document ${id} kept its acknowledged PATCH`).not.toBeNull();
      // The in-flight PATCH after the last acknowledged one may or may not have committed.
      expect(Number(match![1])).toBeGreaterThanOrEqual(lastAck);
      expect(Number(match![1])).toBeLessThanOrEqual(lastAck + 1);
    }
    expect(res.body.content).toEqual(docWith(res.body.title));
  }
  for (const { id, title } of result.created) {
    const res = await call(server, token, 'GET', `/api/documents/${id}`);
    expect(res.status, `acknowledged document "${title}" exists`).toBe(200);
    expect(res.body).toMatchObject({ title, content: docWith(title) });
  }
}

describe(`crash safety of the real server (${kind})`, () => {
  let dataDir: string;
  let handle: TestDatabaseHandle;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'qw-crash-'));
    handle = await createTestDatabase();
    env = childServerEnv({ dataDir, databaseUrl: handle.databaseUrl, jwtSecret: JWT_SECRET });
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    killAllChildServers();
    await handle?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    `keeps every acknowledged write across SIGKILL, ${
      kind === 'pglite'
        ? 'refuses a second server on the same data directory'
        : 'serves from a second instance'
    }, and exits 0 on SIGTERM without losing a write`,
    async () => {
      // 1. First server; documents to patch during the burst.
      const first = await spawnChildServer(env, START_TIMEOUT_MS);
      // A user through the real sign-up (no SMTP configured: the session comes back at once).
      const signup = await fetch(`${first.url}/api/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'crash@example.com',
          password: 'a sturdy passphrase 42',
          data: { full_name: 'Crash' },
        }),
      });
      const signupBody = (await signup.json()) as { session: { access_token: string } | null };
      expect(signup.status, JSON.stringify(signupBody)).toBe(200);
      const token = signupBody.session!.access_token;
      const docIds: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await call(first, token, 'POST', '/api/documents', { title: `seed ${i}` });
        expect(res.status).toBe(201);
        docIds.push(res.body.id);
      }

      // 2. A second instance on the same data: refused for PGlite (one process per directory); welcome on
      //    PostgreSQL, where several instances share the database.
      const second = spawnChildServer(env, START_TIMEOUT_MS);
      if (kind === 'pglite') {
        const failure = await second.then(
          () => 'started',
          (error: Error) => error.message,
        );
        expect(failure).toMatch(/server exited \(code 1/);
        expect(failure).toContain(
          `Another Quillwright server (pid ${first.child.pid}) is using the data directory ${dataDir}`,
        );
      } else {
        const other = await second;
        const res = await call(other, token, 'GET', `/api/documents/${docIds[0]}`);
        expect(res.status).toBe(200);
        other.child.kill('SIGTERM');
        expect(await other.exited).toEqual({ code: 0, signal: null });
      }

      // 3. SIGKILL in the middle of a burst of writes.
      const killed = await burst(first, token, docIds, {
        tag: 'kill',
        creators: 3,
        stopAfterAcks: 60,
        stop: () => first.child.kill('SIGKILL'),
      });
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      if (kind === 'pglite') expect(existsSync(path.join(dataDir, 'quillwright.lock'))).toBe(true); // stale

      // 4. Restart on the same data (the stale lock is taken over): every acknowledged write is there.
      const restarted = await spawnChildServer(env, START_TIMEOUT_MS);
      await expectAllAcknowledged(restarted, token, killed, 'kill');

      // 5. SIGTERM during a burst: requests in flight finish, the process exits 0, the lock is released.
      const terminated = await burst(restarted, token, docIds, {
        tag: 'term',
        creators: 3,
        stopAfterAcks: 40,
        stop: () => restarted.child.kill('SIGTERM'),
      });
      expect(await restarted.exited, restarted.output().slice(-3000)).toEqual({ code: 0, signal: null });
      expect(existsSync(path.join(dataDir, 'quillwright.lock'))).toBe(false);

      const last = await spawnChildServer(env, START_TIMEOUT_MS);
      await expectAllAcknowledged(last, token, terminated, 'term');
      const list = await call(last, token, 'GET', '/api/documents');
      expect(list.body.length).toBeGreaterThanOrEqual(
        docIds.length + killed.created.length + terminated.created.length,
      );
      last.child.kill('SIGTERM');
      expect(await last.exited).toEqual({ code: 0, signal: null });
    },
    4 * START_TIMEOUT_MS,
  );
});
