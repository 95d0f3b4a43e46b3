import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectCollabClient, waitFor, type CollabClient } from '../src/server/collab/testing';
import { freePort } from '../src/server/reliability/child-server';

/**
 * `npm start` under a supervisor (systemd, Docker, pm2, supervisord): the supervisor starts `npm start` and,
 * to stop it, signals that one process — not its process group. Every process of the server must then stop
 * gracefully within 10 s with exit code 0, leaving the embedded database unlocked, so the same command starts
 * again on the same data. A terminal's Ctrl+C (SIGINT) must behave the same.
 */

const STOP_BUDGET_MS = 10_000;
// The first start builds what is missing (the web app too when `vite build` has not run yet).
const FIRST_START_TIMEOUT_MS = 240_000;
const LATER_START_TIMEOUT_MS = 60_000;

interface Supervised {
  npm: ChildProcess;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

let dataDir: string;
let port: number;
const started: ChildProcess[] = [];

function supervisorEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // Only what a unit file would set: nothing of the developer's environment (DATABASE_URL, keys) leaks in.
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    LOG_FORMAT: 'json',
    ...extra,
  };
}

async function startSupervised(
  timeoutMs: number,
  extraEnv: Record<string, string> = {},
): Promise<Supervised> {
  const npm = spawn('npm', ['start'], {
    cwd: process.cwd(),
    env: supervisorEnv(extraEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(npm);
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-100_000);
  };
  npm.stdout!.on('data', collect);
  npm.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone) throw new Error(`npm start exited before serving:\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not serve within ${timeoutMs} ms:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return { npm, url, exited, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Every process below `pid`, from the process table. */
function descendantsOf(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of table) {
      if (ppid === parent) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals the npm process alone, as a supervisor does; resolves with how it ended and how long it took. */
async function stopLikeSupervisor(
  server: Supervised,
  signal: NodeJS.Signals,
  whileStopping: () => Promise<void> = async () => {},
) {
  const tree = [server.npm.pid!, ...descendantsOf(server.npm.pid!)];
  // npm, and the server it runs: a tree of at least two processes, or the test would prove nothing.
  expect(tree.length, server.output()).toBeGreaterThanOrEqual(2);
  const sentAt = Date.now();
  process.kill(server.npm.pid!, signal);
  await whileStopping();
  const timeout = new Promise<'timeout'>((resolve) =>
    setTimeout(() => resolve('timeout'), STOP_BUDGET_MS + 2_000),
  );
  const result = await Promise.race([server.exited, timeout]);
  const tookMs = Date.now() - sentAt;
  // Whatever stays running is reported (and then killed, so a failing run leaves nothing behind).
  await new Promise((resolve) => setTimeout(resolve, 200));
  const leftRunning = tree.filter(isRunning);
  for (const pid of leftRunning) process.kill(pid, 'SIGKILL');
  return { result, tookMs, leftRunning };
}

async function api(url: string, token: string | null, method: string, urlPath: string, body?: unknown) {
  const res = await fetch(url + urlPath, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? (JSON.parse(text) as any) : undefined };
}

describe('npm start under a supervisor', () => {
  let token: string;
  let documentId: string;
  let collab: CollabClient | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'qw-supervised-'));
    port = await freePort();
  });

  afterAll(() => {
    collab?.destroy();
    for (const child of started) {
      for (const pid of [...descendantsOf(child.pid!), child.pid!])
        if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'stops on SIGTERM to the npm process alone: exit 0 within 10 s, no process left, data directory unlocked',
    async () => {
      const server = await startSupervised(FIRST_START_TIMEOUT_MS);
      // A fresh instance has no admin: its log carries the one-time setup code that claims it.
      expect(server.output()).toMatch(/No admin yet: setup code [A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}/);
      const signup = await api(server.url, null, 'POST', '/api/auth/signup', {
        email: 'supervised@example.com',
        password: 'a sturdy passphrase 42',
        data: { full_name: 'Supervised Writer' },
      });
      expect(signup.status, signup.text).toBe(200);
      token = signup.body.session.access_token;
      const created = await api(server.url, token, 'POST', '/api/documents', { title: 'Supervised draft' });
      expect(created.status, created.text).toBe(201);
      documentId = created.body.id;

      // An editor is connected when the supervisor stops the server: what it typed must be saved on the way out.
      collab = await connectCollabClient({ serverUrl: server.url, documentId, token, timeoutMs: 20_000 });
      collab.appendParagraph('Typed just before the restart.');
      await waitFor(() => !collab!.provider.hasUnsyncedChanges, 10_000, 'the server to receive the edit');
      expect(existsSync(path.join(dataDir, 'quillwright.lock'))).toBe(true);

      const { result, tookMs, leftRunning } = await stopLikeSupervisor(server, 'SIGTERM');
      collab.destroy();
      collab = undefined;
      expect(result, server.output()).toEqual({ code: 0, signal: null });
      expect(tookMs).toBeLessThan(STOP_BUDGET_MS);
      expect(leftRunning).toEqual([]);
      expect(existsSync(path.join(dataDir, 'quillwright.lock'))).toBe(false);
    },
    FIRST_START_TIMEOUT_MS + 60_000,
  );

  it(
    'starts again on the same data and serves the document, stops the same way on SIGINT (Ctrl+C), and drains',
    async () => {
      expect(documentId, 'the SIGTERM case ran first').toBeDefined();
      const server = await startSupervised(LATER_START_TIMEOUT_MS);
      const document = await api(server.url, token, 'GET', `/api/documents/${documentId}`);
      expect(document.status, document.text).toBe(200);
      expect(document.body.title).toBe('Supervised draft');
      expect(document.text).toContain('Typed just before the restart.');

      const { result, tookMs, leftRunning } = await stopLikeSupervisor(server, 'SIGINT');
      expect(result, server.output()).toEqual({ code: 0, signal: null });
      expect(tookMs).toBeLessThan(STOP_BUDGET_MS);
      expect(leftRunning).toEqual([]);
      expect(existsSync(path.join(dataDir, 'quillwright.lock'))).toBe(false);

      // Behind a load balancer: health answers 503 "draining" for a moment while requests are still served.
      const again = await startSupervised(LATER_START_TIMEOUT_MS, { SHUTDOWN_DRAIN_SECONDS: '2' });
      const list = await api(again.url, token, 'GET', '/api/documents');
      expect(list.text).toContain('Supervised draft');
      let health: Awaited<ReturnType<typeof api>> | undefined;
      const stopped = await stopLikeSupervisor(again, 'SIGTERM', async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        health = await api(again.url, null, 'GET', '/api/health');
      });
      expect(health?.status, health?.text).toBe(503);
      expect(health?.body).toMatchObject({ status: 'draining', version: expect.any(String) });
      expect(stopped.result).toEqual({ code: 0, signal: null });
      expect(stopped.tookMs).toBeLessThan(STOP_BUDGET_MS);
      expect(stopped.leftRunning).toEqual([]);
    },
    LATER_START_TIMEOUT_MS * 2 + 60_000,
  );
});
