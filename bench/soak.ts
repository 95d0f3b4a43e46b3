import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { COLLAB_FRAGMENT } from '../src/shared/editor/collab-protocol';
import { connectCollabClient, type CollabClient } from '../src/server/collab/testing';
import {
  api,
  childServerEnv,
  freePort,
  spawnChildServer,
  type ChildServer,
} from '../src/server/reliability/child-server';

/**
 * `npm run soak` (docs/reliability.md, section 6): one server instance on PostgreSQL holds SOAK_CONNECTIONS
 * (200) collaboration connections that keep typing, plus SOAK_RPS (50) REST requests a second, for
 * SOAK_SECONDS (60). Reports errors (target 0), p50/p99 latencies and the server's RSS at start, peak and
 * end.
 *
 * SOAK_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) is the admin connection: the soak
 * creates its own database there and drops it afterwards.
 */

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 200);
const RPS = Number(process.env.SOAK_RPS ?? 50);
const DOCUMENTS = Number(process.env.SOAK_DOCUMENTS ?? 20);
/** Mean pause between two edits of one connection. */
const EDIT_INTERVAL_MS = Number(process.env.SOAK_EDIT_INTERVAL_MS ?? 10_000);
/** Edits not confirmed by the server (sync-status reply) within this time count as errors. */
const ACK_TIMEOUT_MS = 10_000;
const ADMIN_URL = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MAX_PARAGRAPHS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/u.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

interface Errors {
  rest: Map<string, number>;
  collab: Map<string, number>;
}
const errors: Errors = { rest: new Map(), collab: new Map() };
const countError = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

async function main() {
  const name = `qw_soak_${randomBytes(4).toString('hex')}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qw-soak-'));
  await adminQuery(`create database ${name}`);
  const port = await freePort();
  let server: ChildServer | undefined;
  try {
    server = await spawnChildServer(
      childServerEnv({
        dataDir,
        databaseUrl: url.toString(),
        jwtSecret: randomBytes(32).toString('hex'),
        extra: { PORT: String(port), LOG_LEVEL: 'warn', TRUST_PROXY: 'true' },
      }),
    );
    console.log(`soak: server pid ${server.pid} at ${server.url} on PostgreSQL database ${name}`);

    // Writers: a few accounts, each with documents (20 shared by the editors, 5 for REST writes).
    const tokens: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api(server.url, null, 'POST', '/api/auth/signup', {
        email: `soak-${i}-${randomBytes(3).toString('hex')}@example.com`,
        password: 'a sturdy soak passphrase',
        data: { full_name: 'Soak Writer' },
      });
      if (res.status !== 200) throw new Error(`sign-up answered ${res.status}: ${JSON.stringify(res.body)}`);
      tokens.push(res.body.session.access_token as string);
    }
    const liveToken = tokens[0]!;
    const liveDocs: string[] = [];
    for (let i = 0; i < DOCUMENTS; i++) {
      const res = await api(server.url, liveToken, 'POST', '/api/documents', { title: `soak live ${i}` });
      liveDocs.push(res.body.id as string);
    }
    const restDocs: { token: string; id: string }[] = [];
    for (const token of tokens.slice(1)) {
      const res = await api(server.url, token, 'POST', '/api/documents', { title: 'soak rest' });
      restDocs.push({ token, id: res.body.id as string });
    }

    // Connections, in batches so the ramp-up itself is not a thundering herd.
    const clients: CollabClient[] = [];
    const connectStarted = performance.now();
    for (let i = 0; i < CONNECTIONS; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(20, CONNECTIONS - i) }, (_, j) =>
          connectCollabClient({
            serverUrl: server!.url,
            documentId: liveDocs[(i + j) % liveDocs.length]!,
            token: liveToken,
            timeoutMs: 30_000,
          }),
        ),
      );
      clients.push(...batch);
    }
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    let stopping = false;
    for (const client of clients) {
      client.provider.on('close', () => {
        if (!stopping) countError(errors.collab, 'connection closed');
      });
    }
    const rssStart = rssMiB(server.pid);
    console.log(
      `soak: ${clients.length} connections open in ${connectSeconds.toFixed(1)} s; server RSS ${rssStart} MiB`,
    );

    const deadline = Date.now() + SECONDS * 1000;
    const collabLatencies: number[] = [];
    const restLatencies: number[] = [];
    let edits = 0;
    let requests = 0;
    let rssPeak = rssStart;
    const rssSamples: { t: number; rss: number }[] = [{ t: 0, rss: rssStart }];
    const t0 = Date.now();

    // Each connection: edit, wait for the server's confirmation (sync status), pause, repeat.
    const editor = async (client: CollabClient, index: number) => {
      await sleep(Math.random() * EDIT_INTERVAL_MS);
      while (Date.now() < deadline) {
        const fragment = client.doc.getXmlFragment(COLLAB_FRAGMENT);
        const started = performance.now();
        if (fragment.length >= MAX_PARAGRAPHS) {
          client.doc.transact(() => fragment.delete(0, 1));
        } else {
          client.appendParagraph(`soak ${index} ${edits}`);
        }
        edits++;
        while (client.provider.unsyncedChanges > 0 && performance.now() - started < ACK_TIMEOUT_MS) {
          await sleep(5);
        }
        if (client.provider.unsyncedChanges > 0) countError(errors.collab, 'edit not confirmed in 10 s');
        else collabLatencies.push(performance.now() - started);
        await sleep(EDIT_INTERVAL_MS * (0.5 + Math.random()));
      }
    };

    // Open loop: one request every 1000/RPS ms whatever the answers take (so slow answers show up as latency).
    const restLoop = async () => {
      const inFlight = new Set<Promise<void>>();
      for (let n = 0; Date.now() < deadline; n++) {
        const target = t0 + (n * 1000) / RPS;
        const wait = target - Date.now();
        if (wait > 0) await sleep(wait);
        const { token, id } = restDocs[n % restDocs.length]!;
        const kind = n % 10;
        const [method, urlPath, body] =
          kind < 5
            ? (['GET', `/api/documents/${id}`, undefined] as const)
            : kind < 7
              ? (['PATCH', `/api/documents/${id}`, { title: `soak rest ${n}` }] as const)
              : kind < 9
                ? (['GET', '/api/documents', undefined] as const)
                : (['GET', '/api/me/settings', undefined] as const);
        const started = performance.now();
        const request = api(server!.url, token, method, urlPath, body)
          .then((res) => {
            restLatencies.push(performance.now() - started);
            if (res.status >= 300) countError(errors.rest, `${method} ${res.status}`);
          })
          .catch((error: Error) => {
            countError(errors.rest, `${method} ${error.message}`);
          })
          .finally(() => inFlight.delete(request));
        inFlight.add(request);
        requests++;
      }
      await Promise.all(inFlight);
    };

    const sampler = async () => {
      while (Date.now() < deadline) {
        await sleep(5_000);
        const rss = rssMiB(server!.pid);
        rssPeak = Math.max(rssPeak, rss);
        rssSamples.push({ t: Math.round((Date.now() - t0) / 1000), rss });
      }
    };

    await Promise.all([...clients.map(editor), restLoop(), sampler()]);
    // Let the last debounced stores land before measuring the end state.
    await sleep(2_000);
    const rssEnd = rssMiB(server.pid);
    stopping = true;
    const stillConnected = clients.filter(
      (c) => c.provider.isSynced && !c.provider.hasUnsyncedChanges,
    ).length;
    for (const client of clients) client.destroy();

    // Every live document is readable and holds the editors' text.
    let unreadable = 0;
    for (const id of liveDocs) {
      const res = await api(server.url, liveToken, 'GET', `/api/documents/${id}`);
      if (res.status !== 200) unreadable++;
    }
    server.child.kill('SIGTERM');
    const exit = await server.exited;

    const sum = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
    const report = {
      date: new Date().toISOString(),
      seconds: SECONDS,
      connections: CONNECTIONS,
      connectionsStillSyncedAtEnd: stillConnected,
      restRequests: requests,
      restRps: Math.round((requests / SECONDS) * 10) / 10,
      restErrors: sum(errors.rest),
      restErrorKinds: Object.fromEntries(errors.rest),
      restP50Ms: Math.round(percentile(restLatencies, 50) * 10) / 10,
      restP99Ms: Math.round(percentile(restLatencies, 99) * 10) / 10,
      collabEdits: edits,
      collabErrors: sum(errors.collab),
      collabErrorKinds: Object.fromEntries(errors.collab),
      collabAckP50Ms: Math.round(percentile(collabLatencies, 50) * 10) / 10,
      collabAckP99Ms: Math.round(percentile(collabLatencies, 99) * 10) / 10,
      unreadableDocuments: unreadable,
      rssStartMiB: rssStart,
      rssPeakMiB: rssPeak,
      rssEndMiB: rssEnd,
      rssSamples,
      shutdown: exit,
    };
    console.log(JSON.stringify(report, null, 2));
    console.log(
      `soak: ${SECONDS} s, ${CONNECTIONS} connections, ${report.restRps} REST req/s — errors: REST ${report.restErrors}, ` +
        `collaboration ${report.collabErrors}, unreadable documents ${unreadable}; p99 REST ${report.restP99Ms} ms, ` +
        `p99 edit confirmation ${report.collabAckP99Ms} ms; RSS ${rssStart} → ${rssEnd} MiB (peak ${rssPeak})`,
    );
    const failed =
      report.restErrors + report.collabErrors + unreadable > 0 ||
      exit.code !== 0 ||
      stillConnected !== CONNECTIONS;
    process.exitCode = failed ? 1 : 0;
  } finally {
    if (server && server.child.exitCode === null && server.child.signalCode === null)
      server.child.kill('SIGKILL');
    await adminQuery(`drop database if exists ${name} with (force)`).catch((error: unknown) =>
      console.error('soak: could not drop database', error),
    );
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
