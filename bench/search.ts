/**
 * bench:search — full-text search over 10,000 documents of 1,000 words, on embedded PGlite and on this
 * machine's PostgreSQL (its own database, created and dropped here), and the time to import a 5,000-word
 * Word file.
 *
 * Documents are seeded with bulk SQL (batches of rich-text JSON through jsonb_array_elements; the search
 * trigger indexes each row as it lands). Words follow a Zipf distribution over a synthetic vocabulary, so a
 * query can hit almost every document (a common word), a few hundred (a middling one) or a handful.
 * Measured, per database, through the same service function the route calls (SQL + snippet escaping):
 * rounds alternating the baseline (one page of the dashboard list: 20 rows by updated_at, the query the
 * dashboard has always run) and the search mix (common, middling and rare words, two words, a quoted
 * phrase, a prefix being typed). Printed: p50/p95 per query kind and overall, best and median of the rounds,
 * and search p95 / baseline p95.
 *
 * Usage: npm run bench:search [-- --docs 10000 --words 1000 --rounds 3 --queries 30]
 *   BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test): where to CREATE/DROP the database;
 *   --skip-postgres or --skip-pglite to run one.
 * Targets: search p95 ≤ 50 ms on both databases; a 5,000-word DOCX imports in ≤ 1 s.
 */
import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { median, ms, percentile, timed } from './stats';
import { planLimitCheck } from '../src/server/billing';
import pino from 'pino';
import { openDatabase, type Database } from '../src/server/db/client';
import { convertFile, createImportedDocument } from '../src/server/imports/import-service';
import { listLibrary } from '../src/server/documents/search-repository';
import { DocumentEvents, DocumentWriter } from '../src/server/documents';
import { ServerMetrics } from '../src/server/metrics';
import { search } from '../src/server/search/search-service';
import { TRASH_RETENTION_DAYS_DEFAULT } from '../src/shared/constants';

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string', default: '10000' },
    words: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    queries: { type: 'string', default: '30' },
    'skip-postgres': { type: 'boolean', default: false },
    'skip-pglite': { type: 'boolean', default: false },
  },
});
const DOCS = Number(args.docs);
const WORDS = Number(args.words);
const ROUNDS = Number(args.rounds);
const QUERIES = Number(args.queries);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCH = 250;

// A deterministic pseudo-random stream, so both databases get the same documents and queries.
let seed = 20_261_123;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

const SYLLABLES =
  'ba be bi bo bu da de di do du fa fe fi fo ka ke ki ko la le li lo ma me mi mo na ne ni no pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi vo za ze zi zo'.split(
    ' ',
  );
const VOCABULARY = Array.from({ length: 8_000 }, (_, i) => {
  let word = '';
  let n = i;
  do {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return `${word}${SYLLABLES[(i * 7) % SYLLABLES.length]}n`;
});
// Zipf (s = 1): cumulative weights for inverse sampling.
const CUMULATIVE = (() => {
  const weights = VOCABULARY.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let sum = 0;
  return weights.map((w) => (sum += w / total));
})();
function sampleWord(): string {
  const r = random();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo]!;
}

function documentOf(index: number): { title: string; content: unknown } {
  const paragraphs: unknown[] = [];
  for (let written = 0; written < WORDS;) {
    const length = Math.min(WORDS - written, 60 + Math.floor(random() * 60));
    const words = Array.from({ length }, sampleWord);
    written += length;
    paragraphs.push({ type: 'paragraph', content: [{ type: 'text', text: `${words.join(' ')}.` }] });
  }
  return {
    title: `${sampleWord()} ${sampleWord()} ${index}`,
    content: {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: sampleWord() }] },
        ...paragraphs,
      ],
    },
  };
}

async function seed10k(database: Database): Promise<string> {
  seed = 20_261_123;
  const [user] = (await database.exec(
    `insert into users (email, password_hash) values ($1, 'x') returning id`,
    [`bench-${randomBytes(4).toString('hex')}@example.com`],
  )) as { id: string }[];
  const started = performance.now();
  for (let done = 0; done < DOCS; done += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, DOCS - done) }, (_, i) => documentOf(done + i));
    await database.exec(
      `insert into documents (user_id, title, content, updated_at, created_at)
       select $1, d ->> 'title', d -> 'content', now() - (ordinality || ' minutes')::interval, now() - (ordinality || ' minutes')::interval
       from jsonb_array_elements($2::jsonb) with ordinality as t(d, ordinality)`,
      [user!.id, JSON.stringify(batch)],
    );
  }
  await database.exec('analyze documents');
  console.log(
    `  seeded ${DOCS} documents × ${WORDS} words in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return user!.id;
}

interface QueryKind {
  name: string;
  make(): string;
}

const KINDS: QueryKind[] = [
  { name: 'common word', make: () => VOCABULARY[Math.floor(random() * 20)]! },
  { name: 'middling word', make: () => VOCABULARY[200 + Math.floor(random() * 800)]! },
  { name: 'rare word', make: () => VOCABULARY[5_000 + Math.floor(random() * 3_000)]! },
  {
    name: 'two words',
    make: () =>
      `${VOCABULARY[50 + Math.floor(random() * 200)]} ${VOCABULARY[50 + Math.floor(random() * 200)]}`,
  },
  {
    name: 'quoted phrase',
    make: () => `"${VOCABULARY[Math.floor(random() * 10)]} ${VOCABULARY[Math.floor(random() * 10)]}"`,
  },
  { name: 'prefix (typing)', make: () => VOCABULARY[100 + Math.floor(random() * 2_000)]!.slice(0, 4) },
];

async function measure(label: string, database: Database, userId: string): Promise<void> {
  const exec = database.exec;
  // Warm-up: caches, plans.
  for (const kind of KINDS) for (let i = 0; i < 3; i++) await search(exec, userId, kind.make(), 20);
  const roundsP95: number[] = [];
  const baselineP95: number[] = [];
  const perKind = new Map<string, number[]>();
  let hits = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const baseline: number[] = [];
    const all: number[] = [];
    // Alternate baseline and search query by query, so drift on a shared machine hits both alike.
    for (let i = 0; i < QUERIES; i++) {
      for (const kind of KINDS) {
        baseline.push(await timed(() => listLibrary(exec, userId, 'updated', 20, 0)));
        const q = kind.make();
        const took = await timed(async () => (hits += (await search(exec, userId, q, 20)).length));
        all.push(took);
        perKind.set(kind.name, [...(perKind.get(kind.name) ?? []), took]);
      }
    }
    roundsP95.push(percentile(all, 95));
    baselineP95.push(percentile(baseline, 95));
    console.log(
      `  round ${round + 1}: search p50 ${ms(median(all))} p95 ${ms(percentile(all, 95))}; baseline p95 ${ms(percentile(baseline, 95))}`,
    );
  }
  console.log(`  ${label}: ${hits} hits returned in all`);
  for (const [name, values] of perKind) {
    console.log(
      `    ${name.padEnd(16)} p50 ${ms(median(values)).padStart(9)}  p95 ${ms(percentile(values, 95)).padStart(9)}`,
    );
  }
  const ratios = roundsP95.map((p, i) => p / baselineP95[i]!);
  console.log(
    `  ${label}: search p95 best ${ms(Math.min(...roundsP95))}, median ${ms(median(roundsP95))}; ` +
      `ratio to the dashboard page p95: best ${Math.min(...ratios).toFixed(1)}×, median ${median(ratios).toFixed(1)}× ` +
      `— target p95 ≤ 50 ms: ${median(roundsP95) <= 50 ? 'met' : 'NOT met'}`,
  );
}

async function benchDocxImport(database: Database, userId: string): Promise<void> {
  seed = 7;
  const paragraphs: Paragraph[] = [];
  for (let written = 0, section = 1; written < 5_000; section++) {
    paragraphs.push(
      new Paragraph({ heading: HeadingLevel.HEADING_2, children: [new TextRun(`Section ${section}`)] }),
    );
    for (let p = 0; p < 5 && written < 5_000; p++) {
      const words = Array.from({ length: 100 }, sampleWord);
      written += words.length;
      paragraphs.push(
        new Paragraph({
          children: [
            new TextRun(words.slice(0, 50).join(' ') + ' '),
            new TextRun({ text: words.slice(50).join(' '), bold: p % 2 === 0 }),
          ],
        }),
      );
    }
  }
  const bytes = await Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] }));
  const log = pino({ level: 'silent' });
  const documentWriter = new DocumentWriter({
    database,
    log,
    documentCreationCheck: planLimitCheck({ STRIPE_SECRET_KEY: undefined, ENFORCE_PLAN_LIMITS: false }),
    events: new DocumentEvents(),
    metrics: new ServerMetrics({ defaultMetrics: false }),
    trashRetentionDays: TRASH_RETENTION_DAYS_DEFAULT,
  });
  const ctx = { db: database.db, documentWriter };
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    times.push(
      await timed(async () =>
        createImportedDocument(ctx, userId, await convertFile('long.docx', bytes, { owner: userId })),
      ),
    );
  }
  console.log(
    `  5,000-word DOCX (${(bytes.length / 1024).toFixed(0)} KB) convert + create: best ${ms(Math.min(...times))}, ` +
      `median ${ms(median(times))} — target ≤ 1 s: ${median(times) <= 1_000 ? 'met' : 'NOT met'}`,
  );
}

async function main() {
  console.log(
    `bench:search — ${DOCS} documents × ${WORDS} words; ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(2)}`,
  );
  if (!args['skip-pglite']) {
    console.log('PGlite (in memory)');
    const database = await openDatabase({ dataDir: 'memory://' });
    try {
      const userId = await seed10k(database);
      await measure('PGlite', database, userId);
      await benchDocxImport(database, userId);
    } finally {
      await database.close();
    }
  }
  if (!args['skip-postgres']) {
    const name = `qw_bench_search_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    console.log(`PostgreSQL (${name})`);
    try {
      const database = await openDatabase({ databaseUrl: url.toString(), dataDir: os.tmpdir() });
      try {
        const userId = await seed10k(database);
        await measure('PostgreSQL', database, userId);
        await benchDocxImport(database, userId);
      } finally {
        await database.close();
      }
    } finally {
      // BENCH_KEEP_DATABASE=1 leaves it for EXPLAIN (drop it yourself afterwards).
      if (process.env.BENCH_KEEP_DATABASE === '1') console.log(`  kept ${url.toString()}`);
      else await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }
}

await main();
