/**
 * bench:dashboard — the dashboard's server calls at 5,000 documents in 200 folders, on embedded PGlite and on
 * this machine's PostgreSQL (its own database, created and dropped here).
 *
 * One writer holds 5,000 documents of 300 words: 1,000 at the top level and 20 in each of 200 folders (40 at
 * the top level, each with 4 sub-folders), a few pinned. Measured through the same service functions the
 * routes call: the dashboard's first page (all documents, newest first, DASHBOARD_PAGE_SIZE rows), one
 * folder's page in its manual order, and the folder tree with its counts. The baseline is the same first page
 * for a writer with 100 documents in 5 folders, measured call by call alternating with the large library, so
 * the ratio says what 50 times the documents cost.
 *
 * Usage: npm run bench:dashboard [-- --docs 5000 --folders 200 --rounds 3 --calls 60]
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test): where to CREATE/DROP the database;
 *   --skip-postgres or --skip-pglite to run one.
 * Target: p95 ≤ 50 ms for each call on both databases.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { median, ms, percentile, timed } from './stats';
import { openDatabase, type Database } from '../src/server/db/client';
import { folderTree } from '../src/server/folders/service';
import { library } from '../src/server/search/search-service';
import { DASHBOARD_PAGE_SIZE } from '../src/shared/constants';

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string', default: '5000' },
    folders: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    calls: { type: 'string', default: '60' },
    'skip-postgres': { type: 'boolean', default: false },
    'skip-pglite': { type: 'boolean', default: false },
  },
});
const DOCS = Number(args.docs);
const FOLDERS = Number(args.folders);
const ROUNDS = Number(args.rounds);
const CALLS = Number(args.calls);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const WORDS = 300;
const BATCH = 250;
const SUB_FOLDERS_EACH = 4;

const WORD_LIST = 'the river quiet morning letter garden stone window harbour lantern orchard winter'.split(
  ' ',
);
const textOf = (index: number) =>
  Array.from({ length: WORDS }, (_, word) => WORD_LIST[(index * 7 + word * 3) % WORD_LIST.length]).join(' ');

interface Library {
  userId: string;
  /** A folder holding documents, for its page. */
  folderId: string;
}

/**
 * A writer with `docs` documents: a fifth at the top level, the rest spread evenly over `folders` folders
 * (a fifth of them at the top level, each with SUB_FOLDERS_EACH sub-folders).
 */
async function seedLibrary(database: Database, docs: number, folders: number): Promise<Library> {
  const [user] = (await database.exec(
    `insert into users (email, password_hash) values ($1, 'x') returning id`,
    [`bench-${randomBytes(4).toString('hex')}@example.com`],
  )) as { id: string }[];
  const userId = user!.id;
  const folderIds: string[] = [];
  const parents = Math.max(1, Math.round(folders / (SUB_FOLDERS_EACH + 1)));
  for (let parent = 0; parent < parents && folderIds.length < folders; parent++) {
    const [top] = (await database.exec(
      `insert into folders (user_id, name, position) values ($1, $2, $3) returning id`,
      [userId, `Part ${parent + 1}`, parent],
    )) as { id: string }[];
    folderIds.push(top!.id);
    const children = Math.min(SUB_FOLDERS_EACH, folders - folderIds.length);
    const made = (await database.exec(
      `insert into folders (user_id, parent_id, name, position)
       select $1, $2, 'Chapter ' || n, n from generate_series(1, $3::int) as n returning id`,
      [userId, top!.id, children],
    )) as { id: string }[];
    folderIds.push(...made.map((row) => row.id));
  }
  const topLevel = Math.round(docs / 5);
  for (let done = 0; done < docs; done += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, docs - done) }, (_, offset) => {
      const index = done + offset;
      const folderId = index < topLevel ? null : folderIds[(index - topLevel) % folderIds.length]!;
      return {
        title: `Document ${index + 1}`,
        folderId,
        position: Math.floor(index / folderIds.length),
        content: {
          type: 'doc',
          content: [{ type: 'paragraph', content: [{ type: 'text', text: textOf(index) }] }],
        },
      };
    });
    await database.exec(
      `insert into documents (user_id, title, content, folder_id, position, updated_at, created_at)
       select $1, d ->> 'title', d -> 'content', (d ->> 'folderId')::uuid, (d ->> 'position')::int,
              now() - (ordinality || ' minutes')::interval, now() - (ordinality || ' minutes')::interval
       from jsonb_array_elements($2::jsonb) with ordinality as t(d, ordinality)`,
      [userId, JSON.stringify(batch)],
    );
  }
  await database.exec(
    `insert into document_pins (user_id, document_id)
     select $1, id from documents where user_id = $1 order by created_at limit 5`,
    [userId],
  );
  await database.exec('analyze');
  return { userId, folderId: folderIds.at(-1)! };
}

async function measure(label: string, database: Database): Promise<void> {
  const started = performance.now();
  const large = await seedLibrary(database, DOCS, FOLDERS);
  const small = await seedLibrary(database, 100, 5);
  console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const exec = database.exec;
  const ctx = { db: database.db } as Parameters<typeof folderTree>[0];
  const firstPage = (userId: string) =>
    library(exec, userId, { sort: 'updated', limit: DASHBOARD_PAGE_SIZE, offset: 0 });
  const calls: Record<string, () => Promise<unknown>> = {
    'first page': () => firstPage(large.userId),
    'folder page': () =>
      library(exec, large.userId, {
        sort: 'manual',
        limit: DASHBOARD_PAGE_SIZE,
        offset: 0,
        folderId: large.folderId,
      }),
    'folder tree': () => folderTree(ctx, large.userId),
  };
  for (const call of Object.values(calls)) for (let i = 0; i < 5; i++) await call();
  for (let i = 0; i < 5; i++) await firstPage(small.userId);

  const p95s = new Map<string, number[]>();
  const baselineP95s: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const times = new Map<string, number[]>();
    const baseline: number[] = [];
    // Alternate the baseline and each call, call by call, so drift on a shared machine hits both alike.
    for (let i = 0; i < CALLS; i++) {
      for (const [name, call] of Object.entries(calls)) {
        baseline.push(await timed(() => firstPage(small.userId)));
        times.set(name, [...(times.get(name) ?? []), await timed(call)]);
      }
    }
    baselineP95s.push(percentile(baseline, 95));
    const parts = [...times].map(([name, values]) => {
      p95s.set(name, [...(p95s.get(name) ?? []), percentile(values, 95)]);
      return `${name} p95 ${ms(percentile(values, 95))}`;
    });
    console.log(`  round ${round + 1}: ${parts.join(', ')}; baseline p95 ${ms(percentile(baseline, 95))}`);
  }
  for (const [name, values] of p95s) {
    const ratios = values.map((value, i) => value / baselineP95s[i]!);
    console.log(
      `  ${label} ${name.padEnd(11)}: p95 best ${ms(Math.min(...values))}, median ${ms(median(values))}; ` +
        `ratio to 100 documents: best ${Math.min(...ratios).toFixed(1)}×, median ${median(ratios).toFixed(1)}× ` +
        `— target p95 ≤ 50 ms: ${median(values) <= 50 ? 'met' : 'NOT met'}`,
    );
  }
}

async function main() {
  console.log(
    `bench:dashboard — ${DOCS} documents in ${FOLDERS} folders; ${os.cpus().length} CPUs, ` +
      `load ${os.loadavg()[0]!.toFixed(2)}`,
  );
  if (!args['skip-pglite']) {
    console.log('PGlite (in memory)');
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      await measure('PGlite', database);
    } finally {
      await database.close();
    }
  }
  if (!args['skip-postgres']) {
    const name = `qw_bench_dashboard_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    try {
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      console.log('PostgreSQL');
      const database = await openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
      try {
        await measure('PostgreSQL', database);
      } finally {
        await database.close();
      }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
}

await main();
