import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WATCHDOG_GRACE_MS } from '../runtime/shutdown-deadline';
import { createTestDatabase, type TestDatabaseHandle } from '../test/database';
import { childServerEnv, killAllChildServers, spawnChildServer, type ChildServer } from './child-server';

/**
 * A stop that stalls must end at its deadline (SHUTDOWN_TIMEOUT_SECONDS) with a non-zero exit and a log line
 * saying what was still pending, instead of waiting forever. Two stalls, in the real server (a child process):
 * - a client that never finishes sending its request holds the HTTP server open (the event loop still runs);
 * - on top of that, the server's main thread blocks, as when the embedded database (which runs in that thread)
 *   hangs on files removed under it: no timer of that thread can fire any more.
 */
const DEADLINE_SECONDS = 2;
const START_TIMEOUT_MS = 180_000;
/** Signal delivery and process exit on a loaded machine; far below the 10 s default and the stall itself. */
const SLACK_MS = 2_000;
const JWT_SECRET = 'shutdown-deadline-secret-that-is-long-enough-for-hs256';
const scratch = mkdtempSync(path.join(tmpdir(), 'qw-shutdown-'));
const databases: TestDatabaseHandle[] = [];

afterAll(async () => {
  killAllChildServers();
  for (const database of databases) await database.drop();
  rmSync(scratch, { recursive: true, force: true });
});

async function startServer(name: string, extra: Record<string, string> = {}): Promise<ChildServer> {
  const database = await createTestDatabase();
  databases.push(database);
  const dataDir = path.join(scratch, name);
  return spawnChildServer(
    childServerEnv({
      dataDir,
      databaseUrl: database.databaseUrl,
      jwtSecret: JWT_SECRET,
      extra: { LOG_FORMAT: 'json', SHUTDOWN_TIMEOUT_SECONDS: String(DEADLINE_SECONDS), ...extra },
    }),
    // Start-up only; a loaded machine (the whole suite in parallel) can take this long.
    START_TIMEOUT_MS,
  );
}

/** A request whose body never finishes arriving: the server must wait for it to close. */
async function openUnfinishedRequest(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(
    'POST /api/auth/token?grant_type=password HTTP/1.1\r\nHost: localhost\r\n' +
      'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"email":',
  );
  socket.on('error', () => {});
  // Time for the server to take the request in (a connection with no request yet would be closed as idle).
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  return socket;
}

describe('shutdown deadline', () => {
  it(
    'a stop held up by an unfinished request exits 1 at the deadline and logs what was pending',
    { timeout: START_TIMEOUT_MS + 30_000 },
    async () => {
      const server = await startServer('held');
      const socket = await openUnfinishedRequest(server.url);
      try {
        const started = Date.now();
        server.child.kill('SIGTERM');
        const { code, signal } = await server.exited;
        const elapsed = Date.now() - started;
        expect({ code, signal }, server.output()).toEqual({ code: 1, signal: null });
        expect(elapsed).toBeGreaterThanOrEqual(DEADLINE_SECONDS * 1000 - 100);
        expect(elapsed).toBeLessThan(DEADLINE_SECONDS * 1000 + SLACK_MS);
        const line = server
          .output()
          .split('\n')
          .find((entry) => entry.includes('Stopping took longer than'));
        expect(line, server.output()).toBeDefined();
        const logged = JSON.parse(line!) as { pending: string[] };
        expect(logged.pending).toContain('closing the app: finishing HTTP requests, storing live documents');
        expect(logged.pending).toContain('1 HTTP connection(s) open');
      } finally {
        socket.destroy();
      }
    },
  );

  it(
    'a stop whose main thread is blocked is ended by the watchdog, which logs what was pending',
    { timeout: START_TIMEOUT_MS + 30_000 },
    async () => {
      // Stands in for a hang inside the embedded database: once the server has begun stopping (its SIGTERM
      // listener runs right after this one), the main thread blocks for ten minutes.
      const blocker = path.join(scratch, 'block-after-sigterm.mjs');
      writeFileSync(
        blocker,
        "process.once('SIGTERM', () => setImmediate(() => { const end = Date.now() + 600000; while (Date.now() < end); }));\n",
      );
      const server = await startServer('blocked', { NODE_OPTIONS: `--import=${blocker}` });
      const socket = await openUnfinishedRequest(server.url);
      try {
        const started = Date.now();
        server.child.kill('SIGTERM');
        const { code, signal } = await server.exited;
        const elapsed = Date.now() - started;
        expect({ code, signal }, server.output()).toEqual({ code: null, signal: 'SIGKILL' });
        expect(elapsed).toBeLessThan(DEADLINE_SECONDS * 1000 + WATCHDOG_GRACE_MS + SLACK_MS);
        const line = server
          .output()
          .split('\n')
          .find((entry) => entry.includes('is not responding; killing it'));
        expect(line, server.output()).toBeDefined();
        const logged = JSON.parse(line!) as { pending: string[] };
        expect(logged.pending).toContain('closing the app: finishing HTTP requests, storing live documents');
      } finally {
        socket.destroy();
      }
    },
  );
});
