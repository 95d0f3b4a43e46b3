/**
 * bench:scale — three instances on PostgreSQL + Redis behind HAProxy, N editors typing at a human rate.
 *
 * For each N of --editors (a comma list runs the sizes one after another, each on a fresh cluster, and stops
 * at the first unhealthy one): a database of its own, a private redis-server, three instances of the real
 * server (src/server/reliability/fault-harness.ts), HAProxy on loopback in front of them (temp config:
 * HTTP mode, WebSocket upgrades tunnelled, leastconn, health checks on /api/health). N editors (real
 * @hocuspocus/provider clients, one socket each) on M documents each append a short unique paragraph every
 * 1–2 s, and R REST readers GET /api/documents/:id once a second, all through HAProxy.
 *
 * Phase 1 (--seconds): per instance CPU (CPU time / wall, /proc/<pid>/stat), RSS, sockets and live documents
 * (/metrics); overall keystroke→other-editor latency (p50/p99 over every delivery), Redis commands and
 * PUBLISHes per second (INFO), database connections (pg_stat_activity of the bench database), documents
 * written per second (the instances' store-batch counters), and the CPU of HAProxy, Redis, the PostgreSQL
 * backends and this process (the load generator shares the 2 cores).
 * Phase 2 (--kill-seconds): one instance is killed (SIGKILL) while everyone keeps typing; its editors
 * re-attach through HAProxy. Then typing stops and every typed text must be in every editor of its document
 * and in the database (awaitConvergence), and every edit a `stored` message covered must have been in the
 * database when the message came (StoredChecker).
 *
 * Usage: npm run bench:scale [-- --editors 300 --documents 30 --seconds 60 --kill-seconds 20 --readers 5]
 *        [-- --editors 100,300,600,1000] [-- --p99-bound 500] [-- --balance roundrobin]
 * Needs /usr/sbin/haproxy (Debian: apt-get install -y haproxy) and /usr/bin/redis-server; PostgreSQL at
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test, an admin connection: the bench creates
 * and drops its own database there). Figures: docs/performance.md, "Scale (bench:scale)"; docs/capacity.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import IORedis from 'ioredis';
import pg from 'pg';
import * as Y from 'yjs';
import {
  api,
  awaitConvergence,
  connectEditors,
  createDocuments,
  PrivateRedis,
  removeDirs,
  signUp,
  sleep,
  startInstance,
  StoredChecker,
  textsOf,
  until,
  type Editor,
} from '../src/server/reliability/fault-harness';
import { freePort, seededRandom, type ChildServer } from '../src/server/reliability/child-server';
import type { TcpBalancer } from '../src/server/reliability/tcp-balancer';
import { percentile } from './stats';

const { values: args } = parseArgs({
  options: {
    editors: { type: 'string', default: '300' },
    documents: { type: 'string', default: '30' },
    seconds: { type: 'string', default: '60' },
    'kill-seconds': { type: 'string', default: '20' },
    readers: { type: 'string', default: '5' },
    /** A size is healthy while its phase-1 p99 stays under this (ms) and nothing is lost. */
    'p99-bound': { type: 'string', default: '500' },
    balance: { type: 'string', default: 'leastconn' },
  },
});
const SIZES = args.editors.split(',').map(Number);
const DOCUMENTS = Number(args.documents);
const MEASURE_MS = Number(args.seconds) * 1000;
const KILL_MS = Number(args['kill-seconds']) * 1000;
const READERS = Number(args.readers);
const P99_BOUND_MS = Number(args['p99-bound']);
const BALANCE = args.balance;
const INSTANCES = 3;
/** A person typing: one keystroke every 1–2 s (uniform). */
const KEYSTROKE_MIN_MS = 1_000;
const KEYSTROKE_SPREAD_MS = 1_000;
const WARMUP_MS = 5_000;
const READER_PAUSE_MS = 1_000;
const SAMPLE_EVERY_MS = 5_000;
const CONNECT_CONCURRENCY = 10;
const CONVERGE_TIMEOUT_MS = 90_000;
const HAPROXY = '/usr/sbin/haproxy';
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const METRICS_TOKEN = 'bench-scale-metrics-token-0123456789';

if (!existsSync(HAPROXY)) {
  console.error(
    `bench:scale needs HAProxy at ${HAPROXY}: install it (Debian/Ubuntu, as root: apt-get install -y haproxy).`,
  );
  process.exit(2);
}

const CLOCK_TICK_MS = 10;
/** CPU time (user + system) of a process so far, in ms; undefined when it is gone. */
function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
  } catch {
    return undefined;
  }
}

function rssMiB(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/u.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/** Sum of one series over its samples in Prometheus text (labels matched as a substring when given). */
function metric(text: string, name: string, labels = ''): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(\{[^}]*\})? ([\d.eE+-]+|NaN)$/u.exec(line);
    if (match && match[1] === name && (match[2] ?? '').includes(labels)) sum += Number(match[3]);
  }
  return sum;
}

async function scrape(server: ChildServer): Promise<string> {
  const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
  return res.text();
}

interface HaproxyHandle {
  child: ChildProcess;
  url: string;
  /** HAProxy's own lines saying a server went DOWN or UP (health checks). */
  stateChanges(): string[];
  stop(): Promise<void>;
}

/** HAProxy in the foreground (-db) on loopback with a temp config; ready once /api/health answers through it. */
async function startHaproxy(backends: ChildServer[], dir: string): Promise<HaproxyHandle> {
  const port = await freePort();
  const servers = backends.map((server, i) => `  server s${i} ${new URL(server.url).host} check`).join('\n');
  const config = `global
  maxconn 8000
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # A WebSocket, once upgraded, is a tunnel: idle editors stay connected.
  timeout tunnel 1h
  timeout http-keep-alive 10s
  # A connection refused by a dead instance goes to another one before health checks notice.
  retries 3
  option redispatch
frontend editors
  bind 127.0.0.1:${port}
  maxconn 8000
  default_backend instances
backend instances
  balance ${BALANCE}
  # /api/health pings the database through the instance's pool, so a busy pool slows the check: give it
  # 3 s, and 3 failures in a row, before an instance counts as down. Its open sockets are left alone (no
  # on-marked-down shutdown-sessions): cutting a busy instance's sessions sent them all to the others at once,
  # which then failed their checks in turn. A killed instance's sockets close by themselves (the kernel resets
  # them), and new connections to it are refused and redispatched.
  option httpchk GET /api/health
  http-check expect status 200
  timeout check 3s
  default-server inter 2s fastinter 500ms fall 3 rise 2
${servers}
`;
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const child = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${output}`);
      try {
        return (await fetch(`${url}/api/health`)).ok;
      } catch {
        return false;
      }
    },
    15_000,
    () => `haproxy on ${url}:\n${output}`,
    100,
  );
  return {
    child,
    url,
    stateChanges: () => output.split('\n').filter((line) => / is (DOWN|UP)\b/u.test(line)),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** connectEditors asks a balancer for its counters to learn each editor's backend; HAProxy keeps its own. */
function haproxyAsBalancer(url: string): TcpBalancer {
  return {
    url,
    port: Number(new URL(url).port),
    active: () => [],
    total: () => [],
    close: async () => {},
  };
}

interface Delivery {
  at: number;
  ms: number;
}

interface Snapshot {
  at: number;
  cpu: Map<number, number | undefined>;
  generatorCpu: NodeJS.CpuUsage;
  redisCommands: number;
  redisPublishes: number;
  storedDocuments: number;
  storeStatements: number;
  tupleUpdates: number;
}

interface RunResult {
  editors: number;
  healthy: boolean;
  p50: number;
  p99: number;
  lost: number;
}

async function run(n: number): Promise<RunResult> {
  const dirs: string[] = [];
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        console.error('cleanup failed:', (error as Error).message);
      }
    }
    removeDirs(dirs);
  };
  try {
    const workDir = mkdtempSync(path.join(tmpdir(), 'qw-scale-'));
    dirs.push(workDir);
    const databaseName = `qw_scale_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    cleanups.push(async () => {
      await admin.query(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    });
    const databaseUrl = new URL(ADMIN_URL);
    databaseUrl.pathname = `/${databaseName}`;
    const verify = new pg.Client({ connectionString: databaseUrl.toString() });
    await verify.connect();
    verify.on('error', () => {});
    cleanups.push(() => verify.end());
    const readStored = async (documentId: string) =>
      textsOf(
        (await verify.query('select content from documents where id = $1', [documentId])).rows[0]?.content,
      );

    const redis = await PrivateRedis.start();
    cleanups.push(() => redis.down());
    const redisClient = new IORedis(redis.url);
    cleanups.push(() => redisClient.quit());
    const redisPid = Number(/process_id:(\d+)/u.exec(await redisClient.info('server'))?.[1]);

    const extra = { REDIS_URL: redis.url, REDIS_PREFIX: 'bench-scale', METRICS_TOKEN };
    const servers: ChildServer[] = [];
    cleanups.push(() => {
      for (const server of servers) server.child.kill('SIGKILL');
    });
    // One after the other: the first runs the migrations, the others find them done.
    for (let i = 0; i < INSTANCES; i++)
      servers.push(await startInstance({ databaseUrl: databaseUrl.toString(), extra }, dirs));
    const haproxy = await startHaproxy(servers, workDir);
    cleanups.push(() => haproxy.stop());

    const token = await signUp(haproxy.url, `scale-${n}@example.com`);
    const documentIds = await createDocuments(haproxy.url, token, DOCUMENTS, `scale ${n}`);
    const checker = new StoredChecker(readStored);
    cleanups.push(() => checker.stop());

    // Editors join document by document, a few documents at a time (one connectEditors per document).
    const connectStarted = performance.now();
    const perDocument = Math.ceil(n / DOCUMENTS);
    const editors: Editor[] = [];
    cleanups.push(() => {
      for (const editor of editors) editor.client.destroy();
    });
    const groups = documentIds
      .map((documentId, d) => ({
        documentId,
        count: Math.max(0, Math.min(perDocument, n - d * perDocument)),
      }))
      .filter((group) => group.count > 0);
    for (let start = 0; start < groups.length; start += CONNECT_CONCURRENCY) {
      const batch = await Promise.all(
        groups.slice(start, start + CONNECT_CONCURRENCY).map((group) =>
          connectEditors({
            balancer: haproxyAsBalancer(haproxy.url),
            token,
            documentIds: [group.documentId],
            count: group.count,
            onStored: (editor, covered) => checker.add(editor, covered),
          }),
        ),
      );
      for (const editor of batch.flat()) {
        // Typed texts carry the index: it must be unique over the whole run.
        editor.index = editors.length;
        editors.push(editor);
      }
    }
    const connectSeconds = (performance.now() - connectStarted) / 1000;

    // Latency: a keystroke is keyed by the typing client's id and its clock right after the change.
    const sentAt = new Map<string, number>();
    const deliveries: Delivery[] = [];
    for (const editor of editors) {
      editor.client.doc.on('afterTransaction', (tr: Y.Transaction) => {
        if (tr.local) return;
        const now = performance.now();
        tr.afterState.forEach((clock, client) => {
          if (clock <= (tr.beforeState.get(client) ?? 0)) return;
          const at = sentAt.get(`${client}:${clock}`);
          if (at !== undefined) deliveries.push({ at: now, ms: now - at });
        });
      });
    }

    // Typing at a human rate (fault-harness's startTyping types every 120–240 ms, a stress rate).
    const random = seededRandom(n);
    let typing = true;
    let keystrokes = 0;
    const typingLoops = editors.map(async (editor) => {
      await sleep(random() * (KEYSTROKE_MIN_MS + KEYSTROKE_SPREAD_MS));
      let seq = 0;
      while (typing) {
        const text = `s${n}-e${editor.index}-${++seq}`;
        const { doc } = editor.client;
        editor.client.appendParagraph(text);
        const clock = Y.getState(doc.store, doc.clientID);
        sentAt.set(`${doc.clientID}:${clock}`, performance.now());
        editor.edits.push({ text, clock, at: Date.now() });
        keystrokes++;
        await sleep(KEYSTROKE_MIN_MS + random() * KEYSTROKE_SPREAD_MS);
      }
    });

    const readerLatencies: number[] = [];
    const readerErrors: string[] = [];
    const readerLoops = Array.from({ length: READERS }, async (_, r) => {
      const pick = seededRandom(1000 + r);
      while (typing) {
        const id = documentIds[Math.floor(pick() * documentIds.length)]!;
        const started = performance.now();
        try {
          const res = await api(haproxy.url, token, 'GET', `/api/documents/${id}`);
          if (res.status === 200) readerLatencies.push(performance.now() - started);
          else readerErrors.push(String(res.status));
        } catch (error) {
          readerErrors.push((error as Error).message);
        }
        await sleep(READER_PAUSE_MS);
      }
    });

    const live = () => servers.filter((server) => server.child.exitCode === null && !server.child.signalCode);
    const snapshot = async (): Promise<Snapshot> => {
      const backends = (
        await verify.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
          databaseName,
        ])
      ).rows.map((row) => row.pid);
      const pids = [...servers.map((s) => s.pid), haproxy.child.pid!, redisPid, ...backends];
      const texts = await Promise.all(live().map(scrape));
      const commandstats = await redisClient.info('commandstats');
      const tuples = await verify.query<{ n: string }>(
        "select coalesce(sum(n_tup_upd), 0) as n from pg_stat_user_tables where relname = 'documents'",
      );
      return {
        at: performance.now(),
        cpu: new Map(pids.map((pid) => [pid, cpuMs(pid)])),
        generatorCpu: process.cpuUsage(),
        redisCommands: Number(/total_commands_processed:(\d+)/u.exec(await redisClient.info('stats'))?.[1]),
        redisPublishes: [...commandstats.matchAll(/cmdstat_s?publish:calls=(\d+)/gu)].reduce(
          (sum, m) => sum + Number(m[1]),
          0,
        ),
        storedDocuments: texts.reduce(
          (sum, t) => sum + metric(t, 'quillwright_store_batch_documents_sum'),
          0,
        ),
        storeStatements: texts.reduce(
          (sum, t) => sum + metric(t, 'quillwright_store_batch_documents_count'),
          0,
        ),
        tupleUpdates: Number(tuples.rows[0]!.n),
      };
    };
    const cpuShare = (a: Snapshot, b: Snapshot, pids: number[]) => {
      let used = 0;
      for (const pid of pids) {
        const before = a.cpu.get(pid);
        const after = b.cpu.get(pid);
        if (before !== undefined && after !== undefined) used += after - before;
      }
      return used / (b.at - a.at);
    };

    // Phase 1.
    await sleep(WARMUP_MS);
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const peaks = servers.map(() => ({ sockets: 0, liveDocuments: 0, poolTotal: 0, poolWaiting: 0, rss: 0 }));
    let peakDbConnections = 0;
    const sample = async () => {
      for (const [i, server] of servers.entries()) {
        if (!live().includes(server)) continue;
        const text = await scrape(server);
        const peak = peaks[i]!;
        peak.sockets = Math.max(peak.sockets, metric(text, 'quillwright_collab_sockets'));
        peak.liveDocuments = Math.max(peak.liveDocuments, metric(text, 'quillwright_live_documents'));
        peak.poolTotal = Math.max(peak.poolTotal, metric(text, 'quillwright_db_pool_connections', 'total'));
        peak.poolWaiting = Math.max(
          peak.poolWaiting,
          metric(text, 'quillwright_db_pool_connections', 'waiting'),
        );
        peak.rss = Math.max(peak.rss, rssMiB(server.pid));
      }
      const { rows } = await verify.query<{ n: string }>(
        'select count(*) as n from pg_stat_activity where datname = $1',
        [databaseName],
      );
      peakDbConnections = Math.max(peakDbConnections, Number(rows[0]!.n));
    };
    const start = await snapshot();
    const startKeystrokes = keystrokes;
    const windowStart = performance.now();
    while (performance.now() - windowStart < MEASURE_MS) {
      await sample();
      await sleep(Math.max(0, Math.min(SAMPLE_EVERY_MS, MEASURE_MS - (performance.now() - windowStart))));
    }
    await sample();
    const end = await snapshot();
    loop.disable();
    const seconds = (end.at - start.at) / 1000;
    const windowDeliveries = deliveries.filter((d) => d.at >= start.at && d.at <= end.at).map((d) => d.ms);
    const p50 = percentile(windowDeliveries, 50);
    const p99 = percentile(windowDeliveries, 99);
    const backendPids = [...start.cpu.keys()].filter(
      (pid) => ![...servers.map((s) => s.pid), haproxy.child.pid!, redisPid].includes(pid),
    );
    const generatorCpu =
      (end.generatorCpu.user +
        end.generatorCpu.system -
        start.generatorCpu.user -
        start.generatorCpu.system) /
      1000 /
      (end.at - start.at);
    const pct = (share: number) => `${Math.round(share * 100)} %`;

    console.log(
      `\nN=${n} editors on ${groups.length} documents (${perDocument} per document), ${READERS} REST readers, ` +
        `HAProxy balance ${BALANCE}; connected in ${connectSeconds.toFixed(1)} s; ${seconds.toFixed(0)} s measured`,
    );
    console.log(
      '| process | CPU (share of one core) | RSS MiB (peak) | sockets (peak) | live documents | pool total / waiting (peak) |',
    );
    console.log('|---|---|---|---|---|---|');
    for (const [i, server] of servers.entries()) {
      const peak = peaks[i]!;
      console.log(
        `| instance ${i + 1} | ${pct(cpuShare(start, end, [server.pid]))} | ${peak.rss} | ${peak.sockets} | ` +
          `${peak.liveDocuments} | ${peak.poolTotal} / ${peak.poolWaiting} |`,
      );
    }
    console.log(
      `| HAProxy | ${pct(cpuShare(start, end, [haproxy.child.pid!]))} | ${rssMiB(haproxy.child.pid!)} | | | |`,
    );
    console.log(`| redis-server | ${pct(cpuShare(start, end, [redisPid]))} | ${rssMiB(redisPid)} | | | |`);
    console.log(
      `| PostgreSQL backends (${backendPids.length}) | ${pct(cpuShare(start, end, backendPids))} | | | | |`,
    );
    console.log(
      `| load generator (this process) | ${pct(generatorCpu)} | ${Math.round(process.memoryUsage.rss() / 2 ** 20)} | | | |`,
    );
    const writes = (end.storedDocuments - start.storedDocuments) / seconds;
    const statements = (end.storeStatements - start.storeStatements) / seconds;
    const readers = [...readerLatencies];
    console.log(
      `keystrokes ${((keystrokes - startKeystrokes) / seconds).toFixed(0)}/s; keystroke→other editor ` +
        `p50 ${p50?.toFixed(1)} ms, p99 ${p99?.toFixed(1)} ms over ${windowDeliveries.length} deliveries; ` +
        `generator event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms`,
    );
    console.log(
      `Redis ${((end.redisCommands - start.redisCommands) / seconds).toFixed(0)} commands/s, ` +
        `${((end.redisPublishes - start.redisPublishes) / seconds).toFixed(0)} PUBLISH/s; database connections ` +
        `${peakDbConnections} (peak, bench's own included); documents written ${writes.toFixed(1)}/s in ` +
        `${statements.toFixed(1)} statements/s (documents rows updated ${((end.tupleUpdates - start.tupleUpdates) / seconds).toFixed(1)}/s); ` +
        `REST GET p50 ${percentile(readers, 50)?.toFixed(1)} ms, p99 ${percentile(readers, 99)?.toFixed(1)} ms, ` +
        `${readerErrors.length} errors; machine load average ${loadavg()[0]!.toFixed(1)}`,
    );

    const flaps = haproxy.stateChanges();
    console.log(
      `HAProxy health-check state changes before the kill: ${flaps.length}` +
        (flaps.length ? ` (first: ${flaps[0]!.replace(/^.*?Server/u, 'Server').slice(0, 120)})` : ''),
    );

    // Phase 2: one instance dies; its editors re-attach through HAProxy while everyone keeps typing.
    const victim = servers[INSTANCES - 1]!;
    const connectsBefore = editors.map((editor) => editor.connects);
    const killedAt = performance.now();
    victim.child.kill('SIGKILL');
    await victim.exited;
    const connected = (editor: Editor) => editor.client.socket.status === 'connected';
    let reattachMs: number | undefined;
    while (performance.now() - killedAt < KILL_MS) {
      if (reattachMs === undefined && editors.every(connected)) {
        const reattached = editors.filter((editor, i) => editor.connects > connectsBefore[i]!).length;
        if (reattached > 0) reattachMs = performance.now() - killedAt;
      }
      await sleep(100);
    }
    const reattached = editors.filter((editor, i) => editor.connects > connectsBefore[i]!).length;
    const killDeliveries = deliveries.filter((d) => d.at >= killedAt).map((d) => d.ms);
    typing = false;
    await Promise.all([...typingLoops, ...readerLoops]);
    const { ms: convergeMs, accounting } = await awaitConvergence(editors, readStored, CONVERGE_TIMEOUT_MS);
    await checker.stop();
    console.log(
      `kill: instance ${INSTANCES} SIGKILLed with ${peaks[INSTANCES - 1]!.sockets} sockets; ${reattached} editors ` +
        `re-attached through HAProxy (all connected again after ${reattachMs === undefined ? 'n/a' : `${(reattachMs / 1000).toFixed(1)} s`}); ` +
        `latency while it happened p50 ${percentile(killDeliveries, 50)?.toFixed(1)} ms, ` +
        `p99 ${percentile(killDeliveries, 99)?.toFixed(1)} ms`,
    );
    console.log(
      `edits: ${accounting.typed} typed, ${accounting.present} in every editor and in the database, ` +
        `${accounting.lost} lost${accounting.lost ? ` (${accounting.lostExamples.join(', ')})` : ''}; ` +
        `converged ${(convergeMs / 1000).toFixed(1)} s after typing stopped; ${checker.checked} edits checked ` +
        `when a stored message came, ${checker.violations.length} missing` +
        (checker.violations.length ? ` (${checker.violations.slice(0, 3).join(', ')})` : ''),
    );
    const healthy =
      p99 !== undefined && p99 <= P99_BOUND_MS && accounting.lost === 0 && !checker.violations.length;
    console.log(
      `row: | ${n} on ${groups.length} | ${p50?.toFixed(0)} | ${p99?.toFixed(0)} | ` +
        `${servers.map((s) => pct(cpuShare(start, end, [s.pid]))).join(' / ')} | ${pct(generatorCpu)} | ` +
        `${peaks.map((p) => p.rss).join(' / ')} | ${peaks.map((p) => p.sockets).join(' / ')} | ` +
        `${((end.redisPublishes - start.redisPublishes) / seconds).toFixed(0)} | ${peakDbConnections} | ` +
        `${writes.toFixed(1)} | ${reattached} in ${reattachMs === undefined ? 'n/a' : (reattachMs / 1000).toFixed(1)} s | ` +
        `${accounting.lost} of ${accounting.typed} | ${healthy ? 'yes' : 'no'} |`,
    );
    return { editors: n, healthy, p50: p50 ?? NaN, p99: p99 ?? NaN, lost: accounting.lost };
  } finally {
    await cleanup();
  }
}

console.log(
  `bench:scale — ${cpus().length} cores, node ${process.version}, ${INSTANCES} instances + PostgreSQL + Redis ` +
    `behind HAProxy; sizes ${SIZES.join(', ')}; healthy = p99 ≤ ${P99_BOUND_MS} ms and 0 edits lost`,
);
const results: RunResult[] = [];
for (const n of SIZES) {
  const result = await run(n);
  results.push(result);
  if (!result.healthy) break;
}
const best = results.filter((r) => r.healthy).at(-1);
console.log(
  `\nTarget 1,000 editors; achieved ${best ? `${best.editors} healthy` : 'none healthy'} ` +
    `(sizes run: ${results.map((r) => `${r.editors}${r.healthy ? '' : ' unhealthy'}`).join(', ')})`,
);
process.exit(results.some((r) => r.lost > 0) ? 1 : 0);
