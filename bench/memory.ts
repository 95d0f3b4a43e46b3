import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { COLLAB_FRAGMENT } from '../src/shared/editor/collab-protocol';
import { connectCollabClient, type CollabClient } from '../src/server/collab/testing';
import { freePort } from '../src/server/reliability/child-server';
import { summarize, writePerformanceSection } from './browser-bench';

/**
 * `npm run bench:memory`: resident memory of the whole process tree of `npm start` (npm and the server it runs),
 * and how long it takes to start, as a self-hoster runs it.
 *
 * Per database (embedded PGlite, then PostgreSQL), alternating over MEMORY_ROUNDS rounds:
 * 1. later start: `npm start` on an existing build until the first page is served (target ≤ 3 s);
 * 2. idle: one user signed up, opened one document in the editor (collaboration socket) and left
 *    (targets ≤ 300 MiB on PGlite, ≤ 150 MiB on PostgreSQL);
 * 3. 100 editors on 10 documents, each typing (target ≤ 1.5 × idle);
 * 4. soak: the 100 editors keep typing and 10 of them reconnect every few seconds for MEMORY_SOAK_SECONDS;
 *    the tree must not grow (median of the last third against the middle third);
 * 5. after the soak: everyone gone, the tree against idle.
 * Then (unless MEMORY_FRESH_INSTALL=0) once: a fresh clone of HEAD, `npm install && npm start` until the first
 * page is served (target ≤ 60 s).
 *
 * MEMORY_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) is the admin connection: the
 * benchmark creates its own database there and drops it afterwards. The report goes to docs/performance-history.md.
 */

const ROUNDS = Number(process.env.MEMORY_ROUNDS ?? 2);
const SOAK_SECONDS = Number(process.env.MEMORY_SOAK_SECONDS ?? 60);
const FRESH_INSTALL = process.env.MEMORY_FRESH_INSTALL !== '0';
const ADMIN_URL = process.env.MEMORY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EDITORS = 100;
const DOCUMENTS = 10;
const MAX_PARAGRAPHS = 60;
/** Memory settles after a burst (V8 frees, glibc returns pages): measurements wait this long first. */
const SETTLE_MS = 5_000;
const HEADING = '## Memory and start time (bench:memory)';

const TARGETS = {
  idlePglite: 300,
  idlePostgres: 150,
  editorsRatio: 1.5,
  soakGrowth: 1.1,
  laterStartS: 3,
  freshS: 60,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every process below `pid` (from /proc). */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of parents.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

interface TreeMemory {
  totalMiB: number;
  /** name: MiB of each process, e.g. "npm 52, node 131". */
  parts: string;
}

function treeMemory(rootPid: number): TreeMemory {
  let total = 0;
  const parts: string[] = [];
  for (const pid of [rootPid, ...descendantsOf(rootPid)]) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const name = /Name:\s+(\S+)/.exec(status)?.[1] ?? '?';
      total += kb / 1024;
      parts.push(`${name} ${Math.round(kb / 1024)}`);
    } catch {
      // gone meanwhile
    }
  }
  return { totalMiB: Math.round(total), parts: parts.join(', ') };
}

/** Mean of a few samples a second apart, after the tree settled. */
async function settledMemory(rootPid: number): Promise<TreeMemory> {
  await sleep(SETTLE_MS);
  const samples: TreeMemory[] = [];
  for (let i = 0; i < 3; i++) {
    samples.push(treeMemory(rootPid));
    await sleep(1_000);
  }
  return {
    totalMiB: Math.round(samples.reduce((sum, s) => sum + s.totalMiB, 0) / samples.length),
    parts: samples.at(-1)!.parts,
  };
}

interface Started {
  npm: ChildProcess;
  url: string;
  /** Spawn of `npm start` to the first page (GET /) served. */
  firstPageMs: number;
  stop(): Promise<void>;
}

async function startServer(cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Started> {
  const port = Number(env.PORT);
  const url = `http://127.0.0.1:${port}`;
  const spawnedAt = performance.now();
  const npm = spawn('npm', ['start'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  npm.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => npm.on('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (gone) throw new Error(`npm start exited:\n${errors}`);
    if (Date.now() > deadline) throw new Error(`npm start served no page within ${timeoutMs} ms:\n${errors}`);
    try {
      const res = await fetch(`${url}/`);
      if (res.ok && (await res.text()).includes('<html')) break;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  const firstPageMs = performance.now() - spawnedAt;
  return {
    npm,
    url,
    firstPageMs,
    async stop() {
      npm.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      for (const pid of [npm.pid!, ...descendantsOf(npm.pid!)]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  };
}

async function api(url: string, method: string, urlPath: string, token?: string, body?: unknown) {
  const res = await fetch(url + urlPath, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${urlPath} answered ${res.status}: ${text}`);
  return text ? (JSON.parse(text) as any) : undefined;
}

function editOnce(client: CollabClient, label: string): void {
  const fragment = client.doc.getXmlFragment(COLLAB_FRAGMENT);
  if (fragment.length >= MAX_PARAGRAPHS) client.doc.transact(() => fragment.delete(0, 1));
  else client.appendParagraph(label);
}

async function connectEditors(url: string, token: string, documentIds: string[], count: number) {
  const clients: CollabClient[] = [];
  for (let i = 0; i < count; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, count - i) }, (_, j) =>
        connectCollabClient({
          serverUrl: url,
          documentId: documentIds[(i + j) % documentIds.length]!,
          token,
          timeoutMs: 30_000,
        }),
      ),
    );
    clients.push(...batch);
  }
  return clients;
}

interface ScenarioResult {
  kind: 'pglite' | 'postgres';
  laterStartMs: number;
  idle: TreeMemory;
  editors: TreeMemory;
  editorsPeakMiB: number;
  soakMiddleMiB: number;
  soakLastMiB: number;
  afterSoak: TreeMemory;
  edits: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function scenario(kind: 'pglite' | 'postgres'): Promise<ScenarioResult> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qw-bench-memory-'));
  const dbName = `qw_bench_memory_${randomBytes(4).toString('hex')}`;
  let databaseUrl: string | undefined;
  if (kind === 'postgres') {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(ADMIN_URL);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const port = await freePort();
  // What a unit file sets, nothing of this shell's environment (keys, DATABASE_URL).
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_FORMAT: 'json',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  // The first start on a new data directory creates the database; the measured start is a later one.
  const first = await startServer(process.cwd(), env, 240_000);
  await first.stop();
  const server = await startServer(process.cwd(), env, 60_000);
  const clients: CollabClient[] = [];
  try {
    const pid = server.npm.pid!;
    const signup = await api(server.url, 'POST', '/api/auth/signup', undefined, {
      email: `memory-${randomBytes(3).toString('hex')}@example.com`,
      password: 'a sturdy passphrase 42',
      data: { full_name: 'Memory Bench' },
    });
    const token = signup.session.access_token as string;
    const documentIds: string[] = [];
    for (let i = 0; i < DOCUMENTS; i++) {
      documentIds.push((await api(server.url, 'POST', '/api/documents', token, { title: `Memory ${i}` })).id);
    }

    // One user opens one document: the page, the document, the editor's socket; types a line; leaves.
    await api(server.url, 'GET', `/api/documents/${documentIds[0]}`, token);
    const [writer] = await connectEditors(server.url, token, documentIds.slice(0, 1), 1);
    writer!.appendParagraph('A first line.');
    await sleep(500);
    writer!.destroy();
    const idle = await settledMemory(pid);

    // 100 editors, 10 per document, each typing a few paragraphs.
    clients.push(...(await connectEditors(server.url, token, documentIds, EDITORS)));
    let edits = 0;
    let editorsPeakMiB = 0;
    for (let burst = 0; burst < 5; burst++) {
      clients.forEach((client, i) => editOnce(client, `editor ${i} line ${edits++}`));
      await sleep(1_000);
      editorsPeakMiB = Math.max(editorsPeakMiB, treeMemory(pid).totalMiB);
    }
    const editors = await settledMemory(pid);

    // Soak: every editor types every 2 s on average; 10 reconnect every 5 s (documents unload and load again).
    const samples: number[] = [];
    const deadline = Date.now() + SOAK_SECONDS * 1000;
    let reconnectAt = Date.now() + 5_000;
    while (Date.now() < deadline) {
      for (let i = 0; i < clients.length; i++) {
        if (Math.random() < 0.25) editOnce(clients[i]!, `soak ${i} ${edits++}`);
      }
      if (Date.now() >= reconnectAt) {
        reconnectAt += 5_000;
        const start = Math.floor(Math.random() * (clients.length - 10));
        const leaving = clients.splice(start, 10);
        for (const client of leaving) client.destroy();
        clients.splice(start, 0, ...(await connectEditors(server.url, token, documentIds, 10)));
      }
      samples.push(treeMemory(pid).totalMiB);
      await sleep(500);
    }
    const third = Math.max(1, Math.floor(samples.length / 3));
    const soakMiddleMiB = median(samples.slice(third, 2 * third));
    const soakLastMiB = median(samples.slice(2 * third));
    for (const client of clients.splice(0)) client.destroy();
    // Documents without connections unload after their last save: give them time, then measure.
    const afterSoak = await settledMemory(pid);
    return {
      kind,
      laterStartMs: server.firstPageMs,
      idle,
      editors,
      editorsPeakMiB,
      soakMiddleMiB,
      soakLastMiB,
      afterSoak,
      edits,
    };
  } finally {
    for (const client of clients) client.destroy();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') {
      const admin = new pg.Client({ connectionString: ADMIN_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
  }
}

/** A fresh clone of HEAD: `npm install`, then `npm start` until the first page is served. */
async function freshInstall(): Promise<{ installS: number; firstStartS: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'qw-bench-clone-'));
  try {
    execFileSync('git', ['clone', '--quiet', process.cwd(), dir], { stdio: 'inherit' });
    const installStarted = performance.now();
    execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'ignore' });
    const installS = (performance.now() - installStarted) / 1000;
    const port = await freePort();
    const server = await startServer(
      dir,
      {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: path.join(dir, 'data'),
        PORT: String(port),
      },
      240_000,
    );
    const firstStartS = server.firstPageMs / 1000;
    await server.stop();
    return { installS, firstStartS };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);
const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');

async function main() {
  console.log(
    `bench:memory: ${ROUNDS} rounds, soak ${SOAK_SECONDS} s, fresh install ${FRESH_INSTALL ? 'yes' : 'no'}`,
  );
  // Build once up front, so no round pays for it.
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
  const results: ScenarioResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating order, so a slow moment of the machine does not always hit the same database.
    const order = round % 2 === 0 ? (['pglite', 'postgres'] as const) : (['postgres', 'pglite'] as const);
    for (const kind of order) {
      const result = await scenario(kind);
      results.push(result);
      console.log(
        `round ${round + 1} ${kind}: start ${fmt(result.laterStartMs)} ms; idle ${result.idle.totalMiB} MiB (${result.idle.parts}); ` +
          `100 editors ${result.editors.totalMiB} MiB (peak ${result.editorsPeakMiB}); soak ${result.soakMiddleMiB} → ${result.soakLastMiB} MiB; ` +
          `after ${result.afterSoak.totalMiB} MiB; ${result.edits} edits`,
      );
    }
  }
  const fresh = FRESH_INSTALL ? await freshInstall() : undefined;
  if (fresh)
    console.log(
      `fresh clone: npm install ${fmt(fresh.installS, 1)} s, first start ${fmt(fresh.firstStartS, 1)} s`,
    );

  const rows: string[] = [];
  const checks: string[] = [];
  for (const kind of ['pglite', 'postgres'] as const) {
    const mine = results.filter((r) => r.kind === kind);
    const stat = (pick: (r: ScenarioResult) => number) => summarize(mine.map(pick));
    const idle = stat((r) => r.idle.totalMiB);
    const editors = stat((r) => r.editors.totalMiB);
    const ratio = stat((r) => r.editors.totalMiB / r.idle.totalMiB);
    const growth = stat((r) => r.soakLastMiB / r.soakMiddleMiB);
    const after = stat((r) => r.afterSoak.totalMiB);
    const start = stat((r) => r.laterStartMs / 1000);
    const label = kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL';
    rows.push(
      `| ${label} | ${idle.best} / ${idle.median} | ${editors.best} / ${editors.median} | ${fmt(ratio.best, 2)} / ${fmt(ratio.median, 2)} | ` +
        `${fmt(growth.best, 2)} / ${fmt(growth.median, 2)} | ${after.best} / ${after.median} | ${fmt(start.best, 1)} / ${fmt(start.median, 1)} |`,
    );
    const idleTarget = kind === 'pglite' ? TARGETS.idlePglite : TARGETS.idlePostgres;
    checks.push(
      `- ${label}: idle ≤ ${idleTarget} MiB ${verdict(idle.median <= idleTarget)}; 100 editors ≤ ${TARGETS.editorsRatio} × idle ` +
        `${verdict(ratio.median <= TARGETS.editorsRatio)}; no growth over the soak (≤ ${TARGETS.soakGrowth}×) ` +
        `${verdict(growth.median <= TARGETS.soakGrowth)}; later start ≤ ${TARGETS.laterStartS} s ${verdict(start.median <= TARGETS.laterStartS)}`,
    );
  }
  const processes = results.map((r) => `${r.kind}: ${r.idle.parts}`).slice(0, 2);
  const section = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${ROUNDS} rounds alternating the databases, ` +
      `soak ${SOAK_SECONDS} s; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}. ` +
      'Resident memory (MiB) of the whole `npm start` tree (npm and the server), best / median.',
    '',
    '| Database | idle, one document opened | 100 editors on 10 documents | ratio to idle | soak: last third / middle third | after the soak | later start to first page (s) |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Idle in each round (MiB), in the order run: ${results.map((r) => `${r.kind} ${r.idle.totalMiB}`).join(', ')}. ` +
      `Processes when idle (MiB): ${processes.join('; ')}.`,
    '',
    ...(fresh
      ? [
          `Fresh clone of HEAD: \`npm install\` ${fmt(fresh.installS, 1)} s, then \`npm start\` to the first page ` +
            `${fmt(fresh.firstStartS, 1)} s (builds the web app and the server): ${fmt(fresh.installS + fresh.firstStartS, 1)} s in all, ` +
            `target ≤ ${TARGETS.freshS} s ${verdict(fresh.installS + fresh.firstStartS <= TARGETS.freshS)}.`,
          '',
        ]
      : []),
    ...checks,
  ].join('\n');
  console.log(`\n${section}`);
  if (process.env.MEMORY_WRITE !== '0') {
    await writePerformanceSection(HEADING, `${HEADING}\n\n${section}`);
  }
}

await main();
