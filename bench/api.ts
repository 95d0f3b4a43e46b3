/**
 * bench:api — the documents API on PostgreSQL against a minimal Fastify + pg server doing the same SQL.
 *
 * Three processes: this one (autocannon, the client), the real Quillwright server (src/server/main.ts, as
 * deployed: request logging at LOG_LEVEL, stdout to /dev/null) and a minimal Fastify server (`--role
 * baseline`) that runs the same SELECT / UPDATE through `pg` directly, with no authentication, validation or
 * sanitizing. Both use one fresh PostgreSQL database (created and dropped here) and a pool of 10.
 *
 * Measured: authenticated GET /api/documents/:id and PATCH /api/documents/:id with ~10 KB of rich-text
 * content, at CONNECTIONS connections for DURATION seconds each, over DOCS documents (round-robin, so writers
 * don't all queue on one row lock). Runs alternate ours/baseline for ROUNDS rounds after a warm-up; printed:
 * req/s and p99 per run, and the ratio ours/minimal (best and median).
 *
 * Usage: npm run bench:api [-- --duration 8 --rounds 3 --connections 50]
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test): an existing database to connect to
 *   for CREATE/DROP DATABASE. BENCH_LOG_LEVEL: the server's LOG_LEVEL (default info, the production default).
 * Targets: ratio (median of rounds) ≥ 0.85 for GET and ≥ 0.8 for PATCH; p99 ≤ 25 ms on a 2-core machine.
 */
import autocannon, { type Result } from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { RichTextDoc, RichTextNode } from '../src/shared/schemas/richText';

const { values: args } = parseArgs({
  options: {
    role: { type: 'string', default: 'client' },
    duration: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    docs: { type: 'string', default: '50' },
    methods: { type: 'string', default: 'GET,PATCH' },
  },
});

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const POOL_SIZE = 10; // the same as src/server/db/client.ts

/** ~10 KB of realistic rich text: paragraphs and a heading with a few marks and a link. */
function tenKilobyteDoc(seed: string): RichTextDoc {
  const words =
    'the writer revised each paragraph twice before sending the draft to her editor who returned it with notes'.split(
      ' ',
    );
  const content: RichTextNode[] = [
    {
      type: 'heading',
      attrs: { level: 2, textAlign: 'left' },
      content: [{ type: 'text', text: `Draft ${seed}` }],
    },
  ];
  let i = 0;
  while (JSON.stringify({ type: 'doc', content }).length < 10_000) {
    const sentence = Array.from({ length: 24 }, () => words[i++ % words.length]).join(' ');
    content.push({
      type: 'paragraph',
      content: [
        { type: 'text', text: `${sentence}. ` },
        { type: 'text', text: 'Bold claim', marks: [{ type: 'bold' }] },
        { type: 'text', text: ' and ' },
        {
          type: 'text',
          text: 'a source',
          marks: [{ type: 'link', attrs: { href: 'https://example.com/source' } }],
        },
        { type: 'text', text: '.' },
      ],
    });
  }
  return { type: 'doc', content };
}

// ------------------------------------------------------------------------------------------ baseline role

async function runBaseline(): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: POOL_SIZE });
  const userId = process.env.BENCH_USER_ID!;
  const app = Fastify({ bodyLimit: 5 * 1024 * 1024 });
  const columns = 'id, title, content, user_id, created_at, updated_at, is_public, version';
  type Row = {
    id: string;
    title: string;
    content: unknown;
    user_id: string;
    created_at: Date;
    updated_at: Date;
    is_public: boolean;
    version: number;
  };
  const present = (row: Row) => ({
    id: row.id,
    title: row.title,
    content: row.content,
    user_id: row.user_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    is_public: row.is_public,
  });
  app.get<{ Params: { id: string } }>('/api/documents/:id', async (request, reply) => {
    const { rows } = await pool.query<Row>(
      `select ${columns} from documents where id = $1 and user_id = $2`,
      [request.params.id, userId],
    );
    if (!rows[0]) return reply.status(404).send({ message: 'Document not found', code: 'not_found' });
    return reply.header('etag', `"${rows[0].version}"`).send(present(rows[0]));
  });
  app.patch<{ Params: { id: string }; Body: { content: unknown } }>(
    '/api/documents/:id',
    async (request, reply) => {
      const { rows } = await pool.query<Row>(
        `update documents set content = $3, version = version + 1, updated_at = now()
       where id = $1 and user_id = $2 returning ${columns}`,
        [request.params.id, userId, JSON.stringify(request.body.content)],
      );
      if (!rows[0]) return reply.status(404).send({ message: 'Document not found', code: 'not_found' });
      return reply.header('etag', `"${rows[0].version}"`).send(present(rows[0]));
    },
  );
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
  process.once('SIGTERM', () => void app.close().then(() => pool.end().then(() => process.exit(0))));
}

// ------------------------------------------------------------------------------------------ client role

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`${url} did not answer in time`);
}

function startProcess(argv: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const devNull = openSync('/dev/null', 'w');
  // BENCH_CPU_PROF=dir writes CPU profiles of both servers (for finding hot spots).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  return spawn(process.execPath, [...profile, '--import', 'tsx', ...argv], {
    env: { ...process.env, ...env },
    stdio: ['ignore', devNull, 'inherit'],
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Target {
  name: 'ours' | 'minimal';
  url: string;
  headers: Record<string, string>;
  pid: number;
}

async function measure(
  target: Target,
  method: 'GET' | 'PATCH',
  ids: string[],
  body: string,
  seconds: number,
  connections: number,
): Promise<Result> {
  let next = 0;
  const result = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    requests: [
      {
        method,
        headers: {
          ...target.headers,
          ...(method === 'PATCH' ? { 'content-type': 'application/json' } : {}),
        },
        ...(method === 'PATCH' ? { body } : {}),
        setupRequest: (request) => ({ ...request, path: `/api/documents/${ids[next++ % ids.length]}` }),
      },
    ],
  });
  if (result.errors > 0 || result.non2xx > 0 || result.timeouts > 0) {
    throw new Error(
      `${target.name} ${method}: ${result.errors} errors, ${result.non2xx} non-2xx, ${result.timeouts} timeouts`,
    );
  }
  return result;
}

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function runClient(): Promise<void> {
  const seconds = Number(args.duration);
  const rounds = Number(args.rounds);
  const connections = Number(args.connections);
  const docCount = Number(args.docs);
  const methods = args.methods.split(',') as ('GET' | 'PATCH')[];
  const dbName = `qw_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  const children: ChildProcess[] = [];

  try {
    // Our server, as `npm start` runs it (but on PostgreSQL).
    const oursPort = await freePort();
    const ours = startProcess(['src/server/main.ts'], {
      NODE_ENV: 'production',
      PORT: String(oursPort),
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl.toString(),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      JWT_SECRET: randomBytes(32).toString('hex'),
      APP_URL: `http://127.0.0.1:${oursPort}`,
      SMTP_URL: '',
      REDIS_URL: '',
      STRIPE_SECRET_KEY: '',
    });
    children.push(ours);
    const oursUrl = `http://127.0.0.1:${oursPort}`;
    await waitForHttp(`${oursUrl}/api/health`, ours);

    const signup = await fetch(`${oursUrl}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'bench@example.com',
        password: 'a bench passphrase 42',
        data: { full_name: 'Bench' },
      }),
    });
    const session = (await signup.json()) as {
      user: { id: string };
      session: { access_token: string } | null;
    };
    if (!signup.ok || !session.session)
      throw new Error(`sign-up failed: ${signup.status} ${JSON.stringify(session)}`);
    const auth = { authorization: `Bearer ${session.session.access_token}` };

    const content = tenKilobyteDoc('bench');
    const body = JSON.stringify({ content });
    const ids: string[] = [];
    for (let i = 0; i < docCount; i++) {
      const res = await fetch(`${oursUrl}/api/documents`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Bench ${i}`, content }),
      });
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
      ids.push(((await res.json()) as { id: string }).id);
    }
    const getSize = (await (await fetch(`${oursUrl}/api/documents/${ids[0]}`, { headers: auth })).text())
      .length;

    const basePort = await freePort();
    const baseline = startProcess(['bench/api.ts', '--role', 'baseline'], {
      PORT: String(basePort),
      DATABASE_URL: dbUrl.toString(),
      BENCH_USER_ID: session.user.id,
    });
    children.push(baseline);
    const baseUrl = `http://127.0.0.1:${basePort}`;
    await waitForHttp(`${baseUrl}/api/documents/${ids[0]}`, baseline);

    const targets: Target[] = [
      { name: 'ours', url: oursUrl, headers: auth, pid: ours.pid! },
      { name: 'minimal', url: baseUrl, headers: {}, pid: baseline.pid! },
    ];
    console.log(
      `bench:api — ${os.cpus().length} CPUs, load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ` +
        `${connections} connections, ${seconds} s per run, ${rounds} rounds, ${docCount} documents; ` +
        `PATCH body ${body.length} B, GET response ${getSize} B; server LOG_LEVEL=${process.env.BENCH_LOG_LEVEL ?? 'info'}`,
    );
    // Warm-up (JIT, pools, caches); not recorded.
    for (const target of targets) {
      for (const method of methods) await measure(target, method, ids, body, 2, connections);
    }

    const results: Record<string, { rps: number[]; p99: number[]; cpu: number[] }> = {};
    for (let round = 1; round <= rounds; round++) {
      // Alternate who goes first, so neither always runs on a warmer (or busier) machine.
      const order = round % 2 ? targets : [...targets].reverse();
      for (const method of methods) {
        for (const target of order) {
          const cpuBefore = cpuMs(target.pid);
          const r = await measure(target, method, ids, body, seconds, connections);
          // Server CPU per request: unlike req/s, it barely depends on what else the machine is doing.
          const cpuPerRequest = (cpuMs(target.pid) - cpuBefore) / r.requests.total;
          const key = `${method} ${target.name}`;
          results[key] ??= { rps: [], p99: [], cpu: [] };
          results[key].rps.push(r.requests.average);
          results[key].p99.push(r.latency.p99);
          results[key].cpu.push(cpuPerRequest);
          console.log(
            `round ${round} ${key.padEnd(13)} ${r.requests.average.toFixed(0).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  server CPU ${(cpuPerRequest * 1000).toFixed(0)} µs/req`,
          );
        }
      }
    }

    console.log('\nsummary (req/s and p99: best / median of the rounds)');
    for (const method of methods) {
      const o = results[`${method} ours`]!;
      const m = results[`${method} minimal`]!;
      const best = Math.max(...o.rps) / Math.max(...m.rps);
      const med = median(o.rps) / median(m.rps);
      console.log(
        `${method.padEnd(5)} ours ${Math.max(...o.rps).toFixed(0)} / ${median(o.rps).toFixed(0)} req/s, ` +
          `p99 ${Math.min(...o.p99)} / ${median(o.p99)} ms | minimal ${Math.max(...m.rps).toFixed(0)} / ${median(m.rps).toFixed(0)} req/s, ` +
          `p99 ${Math.min(...m.p99)} / ${median(m.p99)} ms | ratio best ${best.toFixed(2)}, median ${med.toFixed(2)} ` +
          `(target median ≥ ${method === 'GET' ? '0.85' : '0.80'}, p99 ≤ 25 ms)`,
      );
      console.log(
        `${''.padEnd(5)} server CPU per request (median): ours ${(median(o.cpu) * 1000).toFixed(0)} µs, ` +
          `minimal ${(median(m.cpu) * 1000).toFixed(0)} µs, ratio minimal/ours ${(median(m.cpu) / median(o.cpu)).toFixed(2)}`,
      );
    }
  } finally {
    await Promise.all(children.map(stopProcess));
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
}

if (args.role === 'baseline') {
  await runBaseline();
} else {
  await runClient();
}
