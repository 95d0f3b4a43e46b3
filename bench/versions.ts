/**
 * bench:versions — what version history costs.
 *
 * 1. Storage: a 10,000-word document (500 paragraphs of 20 words), versions taken with a small edit between
 *    each; bytes per version on disk (pg_column_size of the row's content, and the table's total size
 *    divided by its rows, indexes and TOAST included) against the baseline of the document's own row
 *    (content + Yjs state) measured in the same run.
 * 2. A simulated 60-minute editing session on that document: one live editor (a real provider over ws)
 *    typing a sentence every simulated minute, the service clock moved by hand, then leaving; how many
 *    versions it leaves and why.
 * 3. Listing 500 versions (GET /versions) against GET /api/documents/:id of the same document, alternating
 *    rounds; best and median.
 *
 * Usage: npm run bench:versions [-- --rounds 9]. In-memory PGlite; BENCH is quiet about its server's logs.
 */
import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { isStoredFor } from '../src/shared/editor/collab-protocol';
import { connectCollabClient, waitFor } from '../src/server/collab/testing';
import { createUser } from '../src/server/test/factories';
import { startTestServer } from '../src/server/test/server';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '9' } } });
const ROUNDS = Number(args.rounds);

// Words built from syllables by a seeded generator: text about as compressible as prose (a repeated
// vocabulary would make the jsonb compress far better than a real document does).
const SYLLABLES = [
  'ka',
  'ri',
  'mon',
  'te',
  'sa',
  'lu',
  'ven',
  'do',
  'pri',
  'an',
  'gel',
  'os',
  'tur',
  'mi',
  'ble',
  'qua',
];
function sentence(seed: number, words = 20): string {
  let state = (seed + 1) * 2_654_435_761;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state;
  };
  return Array.from({ length: words }, () =>
    Array.from({ length: 1 + (next() % 3) }, () => SYLLABLES[next() % SYLLABLES.length]).join(''),
  ).join(' ');
}
const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const tenThousandWords = () => ({
  type: 'doc',
  content: Array.from({ length: 500 }, (_, i) => paragraph(sentence(i))),
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const server = await startTestServer();
try {
  const { db } = server.database;
  const user = await createUser(server, { plan: 'professional', fullName: 'Bench Writer' });
  const auth = { token: user.token };
  const created = await server.request('POST', '/api/documents', {
    ...auth,
    body: { title: 'Ten thousand words', content: tenThousandWords() },
  });
  const id = created.body.id as string;

  // ---- 1. storage ----
  const VERSIONS = 20;
  const content = tenThousandWords();
  for (let i = 0; i < VERSIONS; i++) {
    content.content[i] = paragraph(`${sentence(i)} edited ${i}`);
    await server.request('PATCH', `/api/documents/${id}`, { ...auth, body: { content } });
    const saved = await server.request('POST', `/api/documents/${id}/versions`, {
      ...auth,
      body: { name: `v${i}` },
    });
    if (saved.status !== 201) throw new Error(`save failed: ${saved.text}`);
  }
  // Open it live once, so the row also holds its Yjs state, as a document in use does.
  const opener = await connectCollabClient({ serverUrl: server.url, documentId: id, token: user.token });
  opener.destroy();
  await waitFor(() => !server.app.hocuspocus.documents.has(id), 10_000, 'unload');
  const [sizes] = (
    await db.execute<{
      version_content: number;
      version_raw: number;
      document_content: number;
      document_ydoc: number;
      table_total: number;
      rows: number;
      words: number;
    }>(sql`
      select
        (select avg(pg_column_size(content))::int from document_versions where document_id = ${id}) as version_content,
        (select avg(octet_length(content::text))::int from document_versions where document_id = ${id}) as version_raw,
        (select pg_column_size(content) from documents where id = ${id}) as document_content,
        (select coalesce(pg_column_size(ydoc_state), 0) from documents where id = ${id}) as document_ydoc,
        pg_total_relation_size('document_versions')::int as table_total,
        (select count(*)::int from document_versions) as rows,
        (select max(word_count) from document_versions where document_id = ${id}) as words`)
  ).rows;
  const perRow = sizes!.table_total / sizes!.rows;
  const documentRow = sizes!.document_content + sizes!.document_ydoc;
  console.log(`Storage, ${sizes!.words} words, ${sizes!.rows} versions:`);
  console.log(
    `  content per version: ${kb(sizes!.version_raw)} as JSON text, ${kb(sizes!.version_content)} stored (compressed)`,
  );
  console.log(`  table bytes per version (indexes, TOAST): ${kb(perRow)}`);
  console.log(
    `  baseline, the document's row (content ${kb(sizes!.document_content)} + Yjs ${kb(sizes!.document_ydoc)}): ${kb(documentRow)}`,
  );
  console.log(`  ratio version / document row: ${(perRow / documentRow).toFixed(2)}`);

  // ---- 2. a simulated 60-minute session ----
  let now = Date.parse('2026-03-02T09:00:00Z');
  server.app.versions.clock = { now: () => new Date(now) };
  const session = await server.request('POST', '/api/documents', {
    ...auth,
    body: { title: 'Session', content: tenThousandWords() },
  });
  const sessionId = session.body.id as string;
  const editor = await connectCollabClient({
    serverUrl: server.url,
    documentId: sessionId,
    token: user.token,
  });
  for (let minute = 0; minute < 60; minute++) {
    editor.appendParagraph(`Minute ${minute}: ${sentence(minute, 12)}.`);
    await waitFor(
      () => editor.messages.some((m) => m.type === 'stored' && isStoredFor(m, editor.doc)),
      15_000,
      'store',
    );
    now += 60_000;
  }
  editor.destroy();
  await waitFor(() => !server.app.hocuspocus.documents.has(sessionId), 10_000, 'unload');
  let list: { reason: string }[] = [];
  for (let i = 0; i < 40; i++) {
    list = (await server.request('GET', `/api/documents/${sessionId}/versions`, auth)).body;
    if (list.some((v) => v.reason === 'session_end')) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const reasons = list.reduce<Record<string, number>>(
    (acc, v) => ({ ...acc, [v.reason]: (acc[v.reason] ?? 0) + 1 }),
    {},
  );
  console.log(
    `60-minute session (one edit per minute, then leaving): ${list.length} versions ${JSON.stringify(reasons)}`,
  );
  server.app.versions.clock = { now: () => new Date() };

  // ---- 3. listing 500 versions ----
  const listed = await server.request('POST', '/api/documents', {
    ...auth,
    body: { title: 'Long history', content: { type: 'doc', content: [paragraph('short')] } },
  });
  const longId = listed.body.id as string;
  for (let i = 0; i < 500; i += 25) {
    await Promise.all(
      Array.from({ length: 25 }, (_, j) =>
        server.app.versions.saveNamed(user.id, longId, `Checkpoint ${i + j}`),
      ),
    );
  }
  server.app.versions.clock = { now: () => new Date() };
  const timings = { versions: [] as number[], document: [] as number[] };
  const time = async (path: string) => {
    const started = performance.now();
    const res = await server.request('GET', path, auth);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return performance.now() - started;
  };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which goes first, so drift on the shared machine hits both.
    const order = round % 2 === 0 ? (['versions', 'document'] as const) : (['document', 'versions'] as const);
    for (const which of order) {
      timings[which].push(
        await time(which === 'versions' ? `/api/documents/${longId}/versions` : `/api/documents/${longId}`),
      );
    }
  }
  const best = (values: number[]) => Math.min(...values);
  console.log(
    `GET /versions (500 rows): best ${best(timings.versions).toFixed(1)} ms, median ${median(timings.versions).toFixed(1)} ms; ` +
      `baseline GET /api/documents/:id: best ${best(timings.document).toFixed(1)} ms, median ${median(timings.document).toFixed(1)} ms; ` +
      `ratio of medians ${(median(timings.versions) / median(timings.document)).toFixed(2)}`,
  );
} finally {
  await server.close();
}
