import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { API_LIST_MAX_LIMIT } from '../../shared/constants';
import { isStoredFor, parseStatelessMessage } from '../../shared/editor/collab-protocol';
import { sanitizeDocContent } from '../../shared/schemas/richText';
import { connectCollabClient, type CollabClient } from '../collab/testing';
import { createTestDatabase, testDatabaseKind, type TestDatabaseHandle } from '../test/database';
import {
  childServerEnv,
  killAllChildServers,
  seededRandom,
  spawnChildServer,
  type ChildServer,
} from './child-server';

/**
 * Crash safety of the real server (src/server/main.ts) as a child process on a data directory (PGlite) or its
 * own PostgreSQL database (docs/reliability.md, section 1).
 *
 * Writes alone: the server is killed with SIGKILL in the middle of a burst of REST writes and restarted; every
 * write acknowledged with a 2xx must be there. Also: a second server on the same PGlite directory is refused
 * with a clear message (PostgreSQL serves from a second instance), and SIGTERM drains requests and exits 0
 * without losing any.
 *
 * With live collaboration: 20 editors type into shared documents through the collaboration socket while REST writers patch
 * and create documents. At a seeded random moment the server is killed with SIGKILL, restarted on the same
 * data, and every edit it had acknowledged must be there:
 * - collaboration: an edit is acknowledged once a `stored` message covers the editor's clock
 *   (docs/collaboration.md, isStoredFor): the server says it is in the database;
 * - REST: a 2xx answer.
 * Then the same with SIGTERM, where nothing the server had received may be lost (edits it confirmed
 * with a sync-status reply, even if not yet stored) and the process exits 0.
 *
 * QW_CRASH_SEEDS=10 (or a list, "1,2,3") for a longer run; the figures are printed at the end.
 */

// Fixed, so tokens stay valid across restarts (as they do in production, where it is kept in DATA_DIR).
const JWT_SECRET = 'reliability-crash-secret-that-is-long-enough-for-hs256';
const START_TIMEOUT_MS = 60_000;
const kind = testDatabaseKind();
const SEEDS = (() => {
  const raw = process.env.QW_CRASH_SEEDS ?? '3';
  if (raw.includes(',')) return raw.split(',').map(Number);
  return Array.from({ length: Number(raw) }, (_, i) => 1000 + i * 7919);
})();
const EDITORS = 20;
const EDITORS_PER_DOCUMENT = 2;
const REST_PATCHERS = 3;
const REST_CREATORS = 1;

interface Edit {
  text: string;
  /** The editor's own Yjs clock right after this edit. */
  clock: number;
}

interface Editor {
  documentId: string;
  client: CollabClient;
  edits: Edit[];
  /** Highest own clock covered by a `stored` message. */
  storedClock: number;
}

interface RestLog {
  /** Per patched document: highest n whose PATCH answered 200. */
  lastPatch: Map<string, number>;
  created: { id: string; title: string }[];
}

interface RunFigures {
  mode: 'SIGKILL' | 'SIGTERM';
  seed: number;
  killAfterMs: number;
  collabEdits: number;
  collabAcknowledged: number;
  collabRecovered: number;
  restAcknowledged: number;
  restRecovered: number;
}

const figures: RunFigures[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const paragraphDoc = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
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
  return { status: response.status, body: text ? (JSON.parse(text) as any) : undefined };
}

/** A user through the real sign-up (no SMTP configured: the session comes back at once); returns the token. */
async function signUp(server: ChildServer, email: string, fullName: string): Promise<string> {
  const signup = await fetch(`${server.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'a sturdy passphrase 42', data: { full_name: fullName } }),
  });
  const body = (await signup.json()) as { session: { access_token: string } | null };
  expect(signup.status, JSON.stringify(body)).toBe(200);
  return body.session!.access_token;
}

function textsOf(content: unknown): string[] {
  const blocks = (content as { content?: { content?: { text?: string }[] }[] }).content ?? [];
  return blocks.map((block) => (block.content ?? []).map((inline) => inline.text ?? '').join(''));
}

async function connectEditors(server: ChildServer, token: string, documentIds: string[]): Promise<Editor[]> {
  return Promise.all(
    Array.from({ length: EDITORS }, async (_, index) => {
      const documentId = documentIds[Math.floor(index / EDITORS_PER_DOCUMENT)]!;
      const client = await connectCollabClient({
        serverUrl: server.url,
        documentId,
        token,
        timeoutMs: 20_000,
      });
      const editor: Editor = { documentId, client, edits: [], storedClock: 0 };
      client.provider.on('stateless', ({ payload }: { payload: string }) => {
        const message = parseStatelessMessage(payload);
        if (message?.type !== 'stored') return;
        if (isStoredFor(message, client.doc)) {
          editor.storedClock = Y.getState(client.doc.store, client.doc.clientID);
          return;
        }
        // Partly covered: find the highest own clock the stored state vector includes.
        const vector = Y.decodeStateVector(Buffer.from(message.stateVector, 'base64'));
        editor.storedClock = Math.max(editor.storedClock, vector.get(client.doc.clientID) ?? 0);
      });
      return editor;
    }),
  );
}

/**
 * REST writers: one sequential PATCH loop per document in `documentIds` and `creators` POST loops, each write
 * acknowledged by its 2xx (`onAck`). They run until `stopped()` (at most `maxPerWriter` writes each); with
 * `untilFailure` they go on writing after that, into the server's shutdown, until their first failed request.
 */
function restWriters(
  server: ChildServer,
  token: string,
  documentIds: string[],
  options: {
    tag: string;
    creators: number;
    stopped: () => boolean;
    onAck?: () => void;
    pause?: { patch: () => number; create: () => number };
    maxPerWriter?: number;
    untilFailure?: boolean;
  },
): { rest: RestLog; done: Promise<void> } {
  const { tag, stopped } = options;
  const max = options.maxPerWriter ?? Number.POSITIVE_INFINITY;
  const goOn = () => options.untilFailure || !stopped();
  const rest: RestLog = { lastPatch: new Map(documentIds.map((id) => [id, 0])), created: [] };
  const patcher = async (id: string) => {
    for (let n = 1; n <= max && goOn(); n++) {
      const title = `${tag}-${id.slice(0, 8)}-${n}`;
      try {
        const res = await call(server, token, 'PATCH', `/api/documents/${id}`, {
          title,
          content: paragraphDoc(title),
        });
        if (res.status !== 200) {
          if (stopped()) return;
          throw new Error(`PATCH answered ${res.status}: ${JSON.stringify(res.body)}`);
        }
        rest.lastPatch.set(id, n);
        options.onAck?.();
      } catch (error) {
        if (stopped()) return;
        throw error;
      }
      if (options.pause) await sleep(options.pause.patch());
    }
  };
  const creator = async (worker: number) => {
    for (let n = 1; n <= max && goOn(); n++) {
      const title = `${tag}-new-${worker}-${n}`;
      try {
        const res = await call(server, token, 'POST', '/api/documents', {
          title,
          content: paragraphDoc(title),
        });
        if (res.status !== 201) {
          if (stopped()) return;
          throw new Error(`POST answered ${res.status}: ${JSON.stringify(res.body)}`);
        }
        rest.created.push({ id: res.body.id as string, title });
        options.onAck?.();
      } catch (error) {
        if (stopped()) return;
        throw error;
      }
      if (options.pause) await sleep(options.pause.create());
    }
  };
  const done = Promise.all([
    ...documentIds.map(patcher),
    ...Array.from({ length: options.creators }, (_, worker) => creator(worker)),
  ]).then(() => undefined);
  return { rest, done };
}

/**
 * Editors type in bursts (1–4 paragraphs, then a pause), so the store debounce fires now and then while
 * the server is busy; REST writers patch and create in loops. Runs until `stopped()`.
 */
function drive(
  server: ChildServer,
  token: string,
  editors: Editor[],
  restDocumentIds: string[],
  random: () => number,
  stopped: () => boolean,
  tag: string,
): { rest: RestLog; done: Promise<void> } {
  const typer = async (editor: Editor, index: number) => {
    let seq = 0;
    while (!stopped()) {
      const burst = 1 + Math.floor(random() * 4);
      for (let i = 0; i < burst && !stopped(); i++) {
        const text = `${tag}-e${index}-${++seq}`;
        editor.client.appendParagraph(text);
        editor.edits.push({ text, clock: Y.getState(editor.client.doc.store, editor.client.doc.clientID) });
        await sleep(20 + random() * 80);
      }
      await sleep(300 + random() * 1500);
    }
  };
  const writers = restWriters(server, token, restDocumentIds, {
    tag,
    creators: REST_CREATORS,
    stopped,
    pause: { patch: () => random() * 100, create: () => 50 + random() * 200 },
  });
  const done = Promise.all([...editors.map(typer), writers.done]).then(() => undefined);
  return { rest: writers.rest, done };
}

/**
 * A burst of REST writes with no pauses; after `stopAfterAcks` acknowledgements `stop()` is called (to kill or
 * terminate the server) while requests are still in flight.
 */
async function restBurst(
  server: ChildServer,
  token: string,
  documentIds: string[],
  options: { tag: string; creators: number; stopAfterAcks: number; stop: () => void },
): Promise<RestLog> {
  let acks = 0;
  let stopped = false;
  const { rest, done } = restWriters(server, token, documentIds, {
    tag: options.tag,
    creators: options.creators,
    stopped: () => stopped,
    onAck: () => {
      if (++acks === options.stopAfterAcks) {
        stopped = true;
        options.stop();
      }
    },
    maxPerWriter: 400, // a bound in case the server never stops answering
    untilFailure: true,
  });
  await done;
  expect(stopped, 'the burst reached its stop point').toBe(true);
  return rest;
}

/** Every acknowledged REST write is in the restarted server; returns how many. */
async function verifyRest(server: ChildServer, token: string, rest: RestLog, tag: string): Promise<number> {
  let recovered = 0;
  for (const [id, lastAck] of rest.lastPatch) {
    const res = await call(server, token, 'GET', `/api/documents/${id}`);
    expect(res.status).toBe(200);
    if (lastAck === 0) continue;
    const match = new RegExp(`^${tag}-${id.slice(0, 8)}-(\\d+)$`).exec(res.body.title as string);
    expect(match, `document ${id} kept its acknowledged PATCH (title ${res.body.title})`).not.toBeNull();
    // The PATCH in flight after the last acknowledged one may or may not have committed.
    expect(Number(match![1])).toBeGreaterThanOrEqual(lastAck);
    expect(Number(match![1])).toBeLessThanOrEqual(lastAck + 1);
    expect(res.body.content).toEqual(paragraphDoc(res.body.title as string));
    recovered += lastAck;
  }
  for (const { id, title } of rest.created) {
    const res = await call(server, token, 'GET', `/api/documents/${id}`);
    expect(res.status, `acknowledged document "${title}" exists`).toBe(200);
    expect(res.body).toMatchObject({ title, content: paragraphDoc(title) });
    recovered++;
  }
  return recovered;
}

/** Checks a restarted server against what the previous one acknowledged; returns the recovered counts. */
async function verify(
  server: ChildServer,
  token: string,
  editors: Editor[],
  rest: RestLog,
  tag: string,
  acknowledged: (editor: Editor) => Edit[],
): Promise<{ collabRecovered: number; restRecovered: number }> {
  const byDocument = new Map<string, Editor[]>();
  for (const editor of editors)
    byDocument.set(editor.documentId, [...(byDocument.get(editor.documentId) ?? []), editor]);
  const counts = await Promise.all(
    [...byDocument].map(async ([documentId, group]) => {
      // Readable through REST: valid content that holds every acknowledged edit...
      const res = await call(server, token, 'GET', `/api/documents/${documentId}`);
      expect(res.status).toBe(200);
      expect(sanitizeDocContent(res.body.content).ok, 'stored content is a valid rich-text tree').toBe(true);
      const restTexts = new Set(textsOf(res.body.content));
      // ...and through the socket: the Yjs state loads and holds them too.
      const reader = await connectCollabClient({
        serverUrl: server.url,
        documentId,
        token,
        timeoutMs: 30_000,
      });
      const liveTexts = new Set(reader.paragraphs());
      reader.destroy();
      let recovered = 0;
      for (const editor of group) {
        for (const edit of acknowledged(editor)) {
          expect(liveTexts.has(edit.text), `acknowledged edit ${edit.text} is in the live document`).toBe(
            true,
          );
          expect(
            restTexts.has(edit.text),
            `acknowledged edit ${edit.text} is in GET /api/documents/:id`,
          ).toBe(true);
          recovered++;
        }
      }
      return recovered;
    }),
  );
  const collabRecovered = counts.reduce((a, b) => a + b, 0);
  const restRecovered = await verifyRest(server, token, rest, tag);
  const list = await call(server, token, 'GET', '/api/documents');
  expect(list.status).toBe(200);
  return { collabRecovered, restRecovered };
}

async function newDocuments(
  server: ChildServer,
  token: string,
  count: number,
  tag: string,
): Promise<string[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await call(server, token, 'POST', '/api/documents', { title: `${tag} ${i}` });
      expect(res.status).toBe(201);
      return res.body.id as string;
    }),
  );
}

describe(`crash safety with live collaboration (${kind})`, () => {
  let dataDir: string;
  let handle: TestDatabaseHandle;
  let env: NodeJS.ProcessEnv;
  let server: ChildServer;
  let token: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'qw-reliability-crash-'));
    handle = await createTestDatabase();
    env = childServerEnv({ dataDir, databaseUrl: handle.databaseUrl, jwtSecret: JWT_SECRET });
    server = await spawnChildServer(env);
    token = await signUp(server, 'crash-collab@example.com', 'Test Writer');
  }, 90_000);

  afterAll(async () => {
    killAllChildServers();
    await handle?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    const total = (pick: (f: RunFigures) => number, mode: RunFigures['mode']) =>
      figures.filter((f) => f.mode === mode).reduce((sum, f) => sum + pick(f), 0);
    for (const mode of ['SIGKILL', 'SIGTERM'] as const) {
      const runs = figures.filter((f) => f.mode === mode).length;
      if (!runs) continue;
      console.log(
        `crash (${kind}, ${mode}): ${runs} runs; collaboration edits made ${total((f) => f.collabEdits, mode)}, ` +
          `acknowledged ${total((f) => f.collabAcknowledged, mode)}, recovered ${total((f) => f.collabRecovered, mode)}; ` +
          `REST writes acknowledged ${total((f) => f.restAcknowledged, mode)}, recovered ${total((f) => f.restRecovered, mode)}`,
      );
    }
    for (const f of figures) console.log(`  ${JSON.stringify(f)}`);
  });

  for (const seed of SEEDS) {
    it(`SIGKILL at a random moment (seed ${seed}) loses no acknowledged edit`, async () => {
      const random = seededRandom(seed);
      const tag = `k${seed}`;
      const collabDocs = await newDocuments(server, token, EDITORS / EDITORS_PER_DOCUMENT, `${tag} live`);
      const restDocs = await newDocuments(server, token, REST_PATCHERS, `${tag} rest`);
      const editors = await connectEditors(server, token, collabDocs);
      const killAfterMs = Math.round(1000 + random() * 3500);
      let stop = false;
      const { rest, done } = drive(server, token, editors, restDocs, random, () => stop, tag);
      await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      // The acknowledgements as they stand at the kill (nothing later can count).
      server.child.kill('SIGKILL');
      stop = true;
      const acknowledgedAtKill = new Map(
        editors.map((e) => [e, e.edits.filter((edit) => edit.clock <= e.storedClock)]),
      );
      const restAtKill: RestLog = { lastPatch: new Map(rest.lastPatch), created: [...rest.created] };
      expect(await server.exited).toEqual({ code: null, signal: 'SIGKILL' });
      for (const editor of editors) editor.client.destroy();
      await done;

      server = await spawnChildServer(env);
      const recovered = await verify(server, token, editors, restAtKill, tag, (e) =>
        acknowledgedAtKill.get(e)!,
      );
      const collabAcknowledged = [...acknowledgedAtKill.values()].reduce(
        (sum, edits) => sum + edits.length,
        0,
      );
      const restAcknowledged =
        [...restAtKill.lastPatch.values()].reduce((a, b) => a + b, 0) + restAtKill.created.length;
      figures.push({
        mode: 'SIGKILL',
        seed,
        killAfterMs,
        collabEdits: editors.reduce((sum, e) => sum + e.edits.length, 0),
        collabAcknowledged,
        restAcknowledged,
        ...recovered,
      });
      expect(recovered.collabRecovered).toBe(collabAcknowledged);
      expect(restAcknowledged).toBeGreaterThan(0);
    }, 120_000);
  }

  it('acknowledged some collaboration edits across the SIGKILL runs (the check is not vacuous)', () => {
    const kills = figures.filter((f) => f.mode === 'SIGKILL');
    expect(kills.length).toBe(SEEDS.length);
    expect(kills.reduce((sum, f) => sum + f.collabAcknowledged, 0)).toBeGreaterThan(0);
  });

  it('SIGTERM: every edit the server had received is stored, and it exits 0', async () => {
    const seed = SEEDS[0]! + 1;
    const random = seededRandom(seed);
    const tag = `t${seed}`;
    const collabDocs = await newDocuments(server, token, EDITORS / EDITORS_PER_DOCUMENT, `${tag} live`);
    const restDocs = await newDocuments(server, token, REST_PATCHERS, `${tag} rest`);
    const editors = await connectEditors(server, token, collabDocs);
    const killAfterMs = Math.round(1000 + random() * 2000);
    let stop = false;
    const { rest, done } = drive(server, token, editors, restDocs, random, () => stop, tag);
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    // Received = answered with a sync-status reply: the update was applied to the server's document.
    // Each edit is one update message, and the replies come in order, so the last `unsyncedChanges`
    // edits of an editor are the ones not confirmed yet.
    stop = true;
    const received = new Map(
      editors.map((e) => [e, e.edits.slice(0, e.edits.length - e.client.provider.unsyncedChanges)]),
    );
    server.child.kill('SIGTERM');
    // REST requests in flight during the shutdown still finish (and count once answered).
    await done;
    const exit = await server.exited;
    expect(exit, server.output().slice(-3000)).toEqual({ code: 0, signal: null });
    for (const editor of editors) editor.client.destroy();

    server = await spawnChildServer(env);
    const recovered = await verify(server, token, editors, rest, tag, (e) => received.get(e)!);
    const collabReceived = [...received.values()].reduce((sum, edits) => sum + edits.length, 0);
    figures.push({
      mode: 'SIGTERM',
      seed,
      killAfterMs,
      collabEdits: editors.reduce((sum, e) => sum + e.edits.length, 0),
      collabAcknowledged: collabReceived,
      restAcknowledged: [...rest.lastPatch.values()].reduce((a, b) => a + b, 0) + rest.created.length,
      ...recovered,
    });
    expect(collabReceived).toBeGreaterThan(0);
    expect(recovered.collabRecovered).toBe(collabReceived);

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 120_000);
});

describe(`crash safety of REST writes (${kind})`, () => {
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
      const token = await signUp(first, 'crash@example.com', 'Crash');
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
      const killed = await restBurst(first, token, docIds, {
        tag: 'kill',
        creators: 3,
        stopAfterAcks: 60,
        stop: () => first.child.kill('SIGKILL'),
      });
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      if (kind === 'pglite') expect(existsSync(path.join(dataDir, 'quillwright.lock'))).toBe(true); // stale

      // 4. Restart on the same data (the stale lock is taken over): every acknowledged write is there.
      const restarted = await spawnChildServer(env, START_TIMEOUT_MS);
      await verifyRest(restarted, token, killed, 'kill');

      // 5. SIGTERM during a burst: requests in flight finish, the process exits 0, the lock is released.
      const terminated = await restBurst(restarted, token, docIds, {
        tag: 'term',
        creators: 3,
        stopAfterAcks: 40,
        stop: () => restarted.child.kill('SIGTERM'),
      });
      expect(await restarted.exited, restarted.output().slice(-3000)).toEqual({ code: 0, signal: null });
      expect(existsSync(path.join(dataDir, 'quillwright.lock'))).toBe(false);

      const last = await spawnChildServer(env, START_TIMEOUT_MS);
      await verifyRest(last, token, terminated, 'term');
      // One page holds them all (the list is paged: docs/api.md).
      const list = await call(last, token, 'GET', `/api/documents?limit=${API_LIST_MAX_LIMIT}`);
      expect(list.body.length).toBeGreaterThanOrEqual(
        docIds.length + killed.created.length + terminated.created.length,
      );
      last.child.kill('SIGTERM');
      expect(await last.exited).toEqual({ code: 0, signal: null });
    },
    4 * START_TIMEOUT_MS,
  );
});
