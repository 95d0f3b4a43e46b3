/**
 * bench:editor — keystroke-to-paint time while typing in a 20,000-word document, in Chromium.
 *
 * 1. Builds, in this run and into temporary directories, the real client (the project's Vite config) and a bare
 *    TipTap StarterKit page (bench/editor-baseline). Nothing is written to dist/.
 * 2. Starts the real server in-process (startTestServer: fresh in-memory database, ephemeral port), signs a user
 *    up through the API and creates a 20,000-word document through POST /api/documents.
 * 3. Opens both pages in headless Chromium (playwright-core, /usr/bin/chromium) on the server's origin; the pages'
 *    static files are answered from the temporary builds, /api and the /api/collab WebSocket reach the server.
 *    Ours is the full editor screen: collaboration (Hocuspocus + y-indexeddb), toolbars, stats, carets.
 * 4. Types KEYS characters into the middle of the document (after WARMUP discarded ones), ROUNDS rounds,
 *    alternating ours and baseline. Per keystroke, measured in the page: keydown's event.timeStamp → the first
 *    DOM mutation of the editor → requestAnimationFrame → a MessageChannel task (which runs after that frame
 *    was painted). Median and p95 over all rounds, and the ratio ours / baseline.
 * 5. Writes the numbers into docs/performance.md under "## Editor (bench:editor)".
 *
 * Live grammar (issue 6) is switched off in ours by default: this bench measures the editor, and the grammar
 * worker's cost on typing has its own measurement in bench:grammar (typing with it on vs off). `--live-grammar`
 * keeps it on.
 *
 * Usage: npm run bench:editor [-- --keys 300 --rounds 2 --no-write --live-grammar]
 * Targets (issue 4): median ≤ 16 ms, ratio (median ours / median baseline) ≤ 1.5.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { startTestServer } from '../src/server/test/server';
import {
  createBenchDocument,
  launchChromium,
  serveStatic,
  summarize,
  writePerformanceSection,
} from './browser-bench';

const { values: args } = parseArgs({
  options: {
    keys: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '40' },
    rounds: { type: 'string', default: '2' },
    words: { type: 'string', default: '20000' },
    'no-write': { type: 'boolean', default: false },
    /** Print the functions with the most self time in our page while typing (CDP CPU profile). */
    profile: { type: 'boolean', default: false },
    'live-grammar': { type: 'boolean', default: false },
  },
});
const KEYS = Number(args.keys);
const WARMUP = Number(args.warmup);
const ROUNDS = Number(args.rounds);
const WORDS = Number(args.words);
const WORDS_PER_PARAGRAPH = 100;
const KEY_DELAY_MS = 35;
const TARGET_MEDIAN_MS = 16;
const TARGET_RATIO = 1.5;
const SESSION_STORAGE_KEY = 'quillwright.auth.session';
const HEADING = '## Editor (bench:editor)';

// ------------------------------------------------------------------------------------------------ document

const VOCABULARY = (
  'the quick writer drafts a careful sentence about morning light over quiet harbours while editors ' +
  'argue gently on structure rhythm and the shape of every paragraph before lunch arrives'
).split(' ');

function paragraph(words: number, seed: number) {
  const text = Array.from(
    { length: words },
    (_, i) => VOCABULARY[(seed * 7 + i * 3) % VOCABULARY.length],
  ).join(' ');
  return { type: 'paragraph', content: [{ type: 'text', text: `${text}.` }] };
}

/** WORDS words: paragraphs of WORDS_PER_PARAGRAPH words with a heading every 20 paragraphs. */
function benchDocument() {
  const content: object[] = [];
  const paragraphs = WORDS / WORDS_PER_PARAGRAPH;
  for (let i = 0; i < paragraphs; i += 1) {
    if (i % 20 === 0)
      content.push({
        type: 'heading',
        attrs: { level: 2 },
        content: [{ type: 'text', text: `Part ${i / 20 + 1}` }],
      });
    content.push(paragraph(WORDS_PER_PARAGRAPH, i));
  }
  return { type: 'doc', content };
}

// ------------------------------------------------------------------------------------------------ builds

async function buildPages(dir: string) {
  const ours = path.join(dir, 'ours');
  const baseline = path.join(dir, 'baseline');
  await build({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'error',
    build: { outDir: ours, emptyOutDir: true },
  });
  await build({
    configFile: false,
    root: path.resolve('bench/editor-baseline'),
    logLevel: 'error',
    build: { outDir: baseline, emptyOutDir: true },
  });
  return { ours, baseline };
}

// ------------------------------------------------------------------------------------------------ measuring

/** Installed in the page: records keydown → mutation → frame → after-paint task, per keystroke. */
function installProbe() {
  const w = window as unknown as { __latencies: number[]; __startProbe: () => void };
  w.__latencies = [];
  w.__startProbe = () => {
    const root = document.querySelector('.ProseMirror');
    if (!root) throw new Error('no editor');
    let pending: number | null = null;
    document.addEventListener('keydown', (event) => (pending = event.timeStamp), true);
    new MutationObserver(() => {
      if (pending === null) return;
      const start = pending;
      pending = null;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => w.__latencies.push(performance.now() - start);
        channel.port2.postMessage(null);
      });
    }).observe(root, { childList: true, subtree: true, characterData: true });
  };
}

const TEXT = 'Typing into a long document should feel instant. ';

async function typeAndMeasure(page: Page): Promise<number[]> {
  const target = page.locator('.ProseMirror p').nth(WORDS / WORDS_PER_PARAGRAPH / 2);
  await target.scrollIntoViewIfNeeded();
  await target.click();
  await page.keyboard.press('End');
  await page.evaluate(() => (window as unknown as { __startProbe: () => void }).__startProbe());
  const text = TEXT.repeat(Math.ceil((WARMUP + KEYS) / TEXT.length)).slice(0, WARMUP + KEYS);
  for (const char of text) {
    await page.keyboard.type(char);
    await page.waitForTimeout(KEY_DELAY_MS);
  }
  await page.waitForTimeout(200);
  const all = await page.evaluate(() => (window as unknown as { __latencies: number[] }).__latencies);
  return all.slice(WARMUP);
}

async function runOurs(browser: Browser, origin: string, root: string, session: unknown, documentId: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [
    SESSION_STORAGE_KEY,
    JSON.stringify(session),
  ] as const);
  if (!args['live-grammar']) {
    // The writer's "Live grammar check" switch, as the assistant panel stores it.
    await context.addInitScript(() => window.localStorage.setItem('quillwright.ai.liveGrammar', 'off'));
  }
  await context.addInitScript(installProbe);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await serveStatic(page, root);
  await page.goto(`${origin}/editor/${documentId}`);
  try {
    await page.getByTestId('connection-badge').getByText('Live').waitFor({ timeout: 60_000 });
  } catch (error) {
    await page.screenshot({ path: path.join(os.tmpdir(), 'bench-editor-failure.png') });
    throw error;
  }
  await page
    .locator('.ProseMirror[contenteditable="true"] p')
    .nth(WORDS / WORDS_PER_PARAGRAPH - 1)
    .waitFor({ timeout: 60_000 });
  const samples = await measured(page, 'ours');
  await context.close();
  return samples;
}

/** typeAndMeasure, with a CPU profile and a summary of the browser's main-thread work when --profile is on. */
async function measured(page: Page, label: string): Promise<number[]> {
  if (!args.profile) return typeAndMeasure(page);
  const cdp = await page.context().newCDPSession(page);
  const events: { name: string; ph: string; dur?: number; args?: { data?: { type?: string } } }[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as typeof events)));
  const tracingDone = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await cdp.send('Tracing.start', { categories: 'devtools.timeline', transferMode: 'ReportEvents' });
  const samples = await typeAndMeasure(page);
  await cdp.send('Tracing.end');
  await tracingDone;
  console.log(`\n[${label}]`);
  printProfile((await cdp.send('Profiler.stop')).profile);
  const byName = new Map<string, number>();
  for (const event of events) {
    if (event.ph !== 'X' || !event.dur) continue;
    const name =
      event.name === 'EventDispatch' ? `EventDispatch ${event.args?.data?.type ?? ''}` : event.name;
    byName.set(name, (byName.get(name) ?? 0) + event.dur / 1000);
  }
  console.log('Browser work by trace event (ms, inclusive):');
  for (const [name, ms] of [...byName.entries()].sort((a, b) => b[1] - a[1]).slice(0, 16)) {
    console.log(`${ms.toFixed(1).padStart(8)}  ${name}`);
  }
  return samples;
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

function printProfile(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
  });
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12);
  console.log('\nSelf time in our page while typing (ms):');
  for (const [key, ms] of top) console.log(`${ms.toFixed(1).padStart(8)}  ${key}`);
}

/** The baseline is served from /bench-baseline/ on the same origin, so both pages take the same network path. */
async function runBaseline(browser: Browser, origin: string, root: string, content: object) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((json) => {
    (window as unknown as { BENCH_CONTENT: unknown }).BENCH_CONTENT = JSON.parse(json);
  }, JSON.stringify(content));
  await context.addInitScript(installProbe);
  const page = await context.newPage();
  await serveStatic(page, root);
  await page.goto(`${origin}/bench-baseline/`);
  await page
    .locator('.ProseMirror p')
    .nth(WORDS / WORDS_PER_PARAGRAPH - 1)
    .waitFor({ timeout: 60_000 });
  const samples = await measured(page, 'baseline');
  await context.close();
  return samples;
}

// ------------------------------------------------------------------------------------------------ report

/** What `--profile` showed and what was changed because of it (kept with the numbers on every rerun). */
const ANALYSIS = [
  '**Where the time goes** (`npm run bench:editor -- --profile`: CPU profile + Chromium trace of both pages). Layout,',
  'style and paint are close to the baseline; the gap is main-thread JavaScript inside the input events (ProseMirror',
  'transaction → y-tiptap → Y.Doc update → provider and y-indexeddb listeners). An experiment that removed every',
  'client-only extension and menu (placeholder, carets, slash palette, toolbars, bubble/floating menus) moved the median',
  'by about 1 ms, so what remains is the cost of the Yjs binding and the shared schema extensions (link autolink,',
  'typography) on each keystroke. Changes made from these measurements: word/character counts are recounted per',
  'changed block (unchanged ProseMirror nodes are cached) 150 ms after typing and rendered by their own small',
  'components; the save status subscribes in its own component; `min-w-0` on the editor column (no min-content',
  'measurement of the whole document); outgoing Yjs and awareness updates are batched for 20 ms (provider',
  "`flushDelay`), so encoding and sending leave the keystroke; this client's own cursor moves no longer trigger a",
  'caret-redraw transaction (y-tiptap redraws on every awareness change; our own caret is never drawn).',
  'Not done yet: moving the y-indexeddb write off the keystroke and a quiet-machine rerun.',
].join('\n');

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qw-bench-editor-'));
  console.log('Building the client and the baseline page…');
  const pages = await buildPages(dir);

  const server = await startTestServer();
  const browser = await launchChromium();
  try {
    const content = benchDocument();
    const { session, documentId } = await createBenchDocument(server, 'Bench document', content);

    const ours: number[] = [];
    const baseline: number[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      console.log(`Round ${round}/${ROUNDS}: ours…`);
      ours.push(...(await runOurs(browser, server.url, pages.ours, session, documentId)));
      console.log(`Round ${round}/${ROUNDS}: baseline…`);
      baseline.push(...(await runBaseline(browser, server.url, pages.baseline, content)));
    }

    const a = summarize(ours);
    const b = summarize(baseline);
    const ratio = a.median / b.median;
    const ratioP95 = a.p95 / b.p95;
    const fmt = (n: number) => n.toFixed(1);
    const table = [
      '| Page | Keystrokes | Best (ms) | Median (ms) | p95 (ms) |',
      '|---|---|---|---|---|',
      `| Quillwright editor (collaboration on) | ${a.n} | ${fmt(a.best)} | ${fmt(a.median)} | ${fmt(a.p95)} |`,
      `| Bare TipTap StarterKit | ${b.n} | ${fmt(b.best)} | ${fmt(b.median)} | ${fmt(b.p95)} |`,
    ].join('\n');
    const verdict = `Ratio ours/baseline: median ${ratio.toFixed(2)}, p95 ${ratioP95.toFixed(2)}. Targets: median ≤ ${TARGET_MEDIAN_MS} ms (${a.median <= TARGET_MEDIAN_MS ? 'met' : 'MISSED'}), ratio ≤ ${TARGET_RATIO} (${ratio <= TARGET_RATIO ? 'met' : 'MISSED'}).`;
    console.log(`\n${table}\n\n${verdict}`);

    if (!args['no-write']) {
      const section = [
        HEADING,
        '',
        `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on the shared 2-core machine, headless Debian Chromium ` +
          `(--disable-gpu), \`npm run bench:editor -- --keys ${KEYS} --rounds ${ROUNDS}\`.`,
        '',
        `Typing ${KEYS} characters (after ${WARMUP} warm-up keystrokes, ${KEY_DELAY_MS} ms apart) into the middle of a ` +
          `${WORDS.toLocaleString('en-US')}-word document (${WORDS / WORDS_PER_PARAGRAPH} paragraphs + headings), ${ROUNDS} rounds ` +
          'alternating the two pages. Keystroke-to-paint = keydown `event.timeStamp` → first DOM mutation of the ' +
          'editor → `requestAnimationFrame` → a MessageChannel task after that frame, measured in the page. Both ' +
          'pages are built in the same run; ours is the full editor screen (Yjs + Hocuspocus to the real server, ' +
          'y-indexeddb, toolbars, live counts, carets); the baseline is `new Editor({ extensions: [StarterKit] })`. ' +
          'Frames are 60 Hz, so every number includes the wait for the next frame (0–16.7 ms).',
        '',
        table,
        '',
        verdict,
        '',
        `Load average while measuring: ${os.loadavg()[0]?.toFixed(1)} (other engineers' test runs share the 2 cores; absolute numbers are inflated and noisy).`,
        '',
        ANALYSIS,
        '',
      ].join('\n');
      await writePerformanceSection(HEADING, section);
      console.log('Written to docs/performance.md');
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
