/**
 * bench:web — what a visitor's browser has to download and how the landing page scores.
 *
 * 1. Builds the client with Vite (the same config as `npm run build`, plus a plugin that records which
 *    modules ended up in which chunk).
 * 2. From dist/client/.vite/manifest.json, computes each page's initial JavaScript: the entry chunk, the
 *    page's lazy chunk and every chunk they import statically, gzip-compressed. Fails if any editor code
 *    (TipTap, ProseMirror, Yjs, Hocuspocus, the editor feature) is in the landing page's set.
 * 3. Starts the real server on a free port with a throwaway database and runs Lighthouse (Debian
 *    Chromium, headless) on `/` RUNS times: performance and accessibility, best and median.
 *
 * Usage: npm run bench:web [-- --runs 3] [-- --desktop] [-- --skip-build] [-- --path /privacy] [-- --sizes-only]
 * Targets: landing initial JS ≤ 100 KB gzip, editor route initial JS ≤ 300 KB gzip, Lighthouse performance ≥ 95 and
 * accessibility ≥ 95 (mobile, median of the runs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { build, type Plugin } from 'vite';

const CHROMIUM = '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const DIST = path.resolve('dist/client');
const MANIFEST = path.join(DIST, '.vite/manifest.json');
const TARGET_LANDING_JS_GZIP = 100 * 1024;
/** Everything a writer needs to type; dialogs, export, history, chat and analysis load on demand. */
const TARGET_EDITOR_JS_GZIP = 300 * 1024;
const TARGET_PERFORMANCE = 95;
const TARGET_ACCESSIBILITY = 95;

/** Manifest keys (paths relative to the Vite root, src/client) of the pages we measure. */
const PAGES = {
  landing: 'features/landing/LandingPage.tsx',
  dashboard: 'features/dashboard/DashboardPage.tsx',
  editor: 'editor-page.tsx',
} as const;

/** Module ids that are editor code and must never be in the landing page's initial JavaScript. */
const EDITOR_CODE =
  /node_modules\/(@tiptap\/|prosemirror-|yjs\/|y-prosemirror|y-protocols|y-indexeddb|@hocuspocus\/)|src\/client\/features\/editor\/|src\/shared\/editor\//;

/**
 * Editor modules the entry holds on purpose: the route table starts the document's requests (its Yjs state, the
 * browser's copy) as the editor's route matches, before the editor's code is in. Small (about 11 KB of source,
 * no editor library among their imports); everything else of the editor stays out of the landing page.
 */
const ROUTE_EARLY_STARTS =
  /src\/client\/features\/editor\/(entry|early-start|offline-copy-keys|offline-copy-store|server-state)\.ts$/;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    desktop: { type: 'boolean', default: false },
    'sizes-only': { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    /** Another page to score (for comparison); the targets are for `/`. */
    path: { type: 'string', default: '/' },
    /** Print each run's long main-thread tasks and script boot-up costs. */
    verbose: { type: 'boolean', default: false },
    /** Ask the page for reduced motion (Chromium flag), to see what the animations cost. */
    'reduced-motion': { type: 'boolean', default: false },
  },
});
const RUNS = Math.max(1, Number(args.runs));

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Records chunk file name → module ids (with their rendered sizes), so we can say what a chunk contains. */
function chunkModules(into: Map<string, string[]>, sizes: Map<string, number>): Plugin {
  return {
    name: 'bench-web-chunk-modules',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        into.set(output.fileName, [...output.moduleIds]);
        for (const [id, info] of Object.entries(output.modules)) sizes.set(id, info.renderedLength);
      }
    },
  };
}

/** "react-dom", "@tanstack/query-core", "src/client/features/auth" … for a module id. */
function moduleGroup(id: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
  if (pkg) return pkg[1]!;
  const local = /(src\/(?:client|shared)\/(?:features\/)?[^/]+)/.exec(id);
  return local ? local[1]! : id;
}

/** The biggest contributors (source size before minification) to a set of chunks. */
function topGroups(files: string[], modules: Map<string, string[]>, sizes: Map<string, number>, count = 12) {
  const totals = new Map<string, number>();
  for (const file of files) {
    for (const id of modules.get(file) ?? []) {
      const group = moduleGroup(id);
      totals.set(group, (totals.get(group) ?? 0) + (sizes.get(id) ?? 0));
    }
  }
  return [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
}

/** The manifest keys a page needs before it can render: entry + page chunk + their static imports. */
function initialChunks(manifest: Manifest, pageKey: string): string[] {
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry)?.[0];
  if (!entry) throw new Error('no entry chunk in the Vite manifest');
  if (!manifest[pageKey])
    throw new Error(`${pageKey} is not in the Vite manifest (is it lazy-loaded by routes.tsx?)`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  visit(entry);
  visit(pageKey);
  return [...seen];
}

function gzipBytes(file: string): { raw: number; gzip: number } {
  const content = readFileSync(path.join(DIST, file));
  return { raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
}

interface PageWeight {
  jsRaw: number;
  jsGzip: number;
  cssGzip: number;
  files: { file: string; gzip: number }[];
  editorModules: string[];
}

function weigh(manifest: Manifest, pageKey: string, modules: Map<string, string[]>): PageWeight {
  const keys = initialChunks(manifest, pageKey);
  const files = keys.map((k) => manifest[k]!.file);
  let jsRaw = 0;
  let jsGzip = 0;
  const list: PageWeight['files'] = [];
  for (const file of files) {
    const size = gzipBytes(file);
    jsRaw += size.raw;
    jsGzip += size.gzip;
    list.push({ file, gzip: size.gzip });
  }
  const css = new Set(keys.flatMap((k) => manifest[k]!.css ?? []));
  const cssGzip = [...css].reduce((sum, file) => sum + gzipBytes(file).gzip, 0);
  const editorModules = files.flatMap((file) =>
    (modules.get(file) ?? []).filter((id) => EDITOR_CODE.test(id) && !ROUTE_EARLY_STARTS.test(id)),
  );
  return { jsRaw, jsGzip, cssGzip, files: list.sort((a, b) => b.gzip - a.gzip), editorModules };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function startServer(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  throw new Error('server did not become healthy within 60 s');
}

interface LighthouseRun {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  failedA11y: string[];
}

async function runLighthouse(url: string, chromePort: number): Promise<LighthouseRun> {
  const result = await lighthouse(
    url,
    { port: chromePort, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] },
    args.desktop ? desktopConfig : undefined,
  );
  if (!result) throw new Error('Lighthouse returned no result');
  if (result.lhr.runtimeError) {
    throw new Error(
      `Lighthouse run failed: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`,
    );
  }
  const { categories, audits } = result.lhr;
  if (args.verbose) {
    // What the browser did unthrottled (observed*) beside Lighthouse's simulated slow-phone figures.
    const metrics = (audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0];
    if (metrics) {
      const picked = Object.entries(metrics).filter(([key]) =>
        /^(firstContentfulPaint|largestContentfulPaint|observed(FirstContentfulPaint|LargestContentfulPaint|DomContentLoaded|Load))$/.test(
          key,
        ),
      );
      console.log(`    metrics: ${JSON.stringify(Object.fromEntries(picked))}`);
    }
    for (const id of ['long-tasks', 'bootup-time', 'mainthread-work-breakdown']) {
      const items = (audits[id]?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
      console.log(`    ${id}:`);
      for (const item of items.slice(0, 8)) console.log(`      ${JSON.stringify(item)}`);
    }
  }
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const numeric = (id: string) => audits[id]?.numericValue ?? NaN;
  const failedA11y = (categories.accessibility?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && audits[ref.id]?.score !== null && (audits[ref.id]?.score ?? 1) < 1)
    .map((ref) => {
      const details = audits[ref.id]?.details as { items?: { node?: { snippet?: string } }[] } | undefined;
      const nodes = (details?.items ?? []).map((item) => item.node?.snippet).filter(Boolean);
      return `${ref.id} (${nodes.slice(0, 3).join(' ') || audits[ref.id]?.title})`;
    });
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    failedA11y,
  };
}

async function main(): Promise<void> {
  const started = Date.now();
  const modules = new Map<string, string[]>();
  const sizes = new Map<string, number>();
  if (!args['skip-build']) {
    console.log('Building the client (vite build)…');
    await build({
      configFile: path.resolve('vite.config.ts'),
      logLevel: 'warn',
      plugins: [chunkModules(modules, sizes)],
    });
  } else if (!existsSync(MANIFEST)) {
    throw new Error('--skip-build needs an existing build with a manifest');
  }
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Manifest;

  const landing = weigh(manifest, PAGES.landing, modules);
  const dashboard = manifest[PAGES.dashboard] ? weigh(manifest, PAGES.dashboard, modules) : null;
  console.log('\nInitial JavaScript (entry + page chunk + static imports; gzip -9):');
  console.log(
    `  landing   ${landing.jsGzip} B gzip (${kb(landing.jsGzip)}; ${kb(landing.jsRaw)} raw), CSS ${kb(landing.cssGzip)} gzip`,
  );
  for (const f of landing.files) console.log(`              ${kb(f.gzip).padStart(9)}  ${f.file}`);
  if (sizes.size > 0) {
    console.log('            biggest parts (source size before minification):');
    const top = topGroups(
      landing.files.map((f) => f.file),
      modules,
      sizes,
    );
    for (const [group, bytes] of top) console.log(`              ${kb(bytes).padStart(9)}  ${group}`);
  }
  if (dashboard) {
    console.log(
      `  dashboard ${dashboard.jsGzip} B gzip (${kb(dashboard.jsGzip)}; ${kb(dashboard.jsRaw)} raw), CSS ${kb(dashboard.cssGzip)} gzip`,
    );
  } else {
    console.log(`  dashboard (no ${PAGES.dashboard} in the manifest)`);
  }
  const editor = weigh(manifest, PAGES.editor, modules);
  console.log(
    `  editor    ${editor.jsGzip} B gzip (${kb(editor.jsGzip)}; ${kb(editor.jsRaw)} raw), CSS ${kb(editor.cssGzip)} gzip`,
  );
  for (const f of editor.files) console.log(`              ${kb(f.gzip).padStart(9)}  ${f.file}`);
  if (sizes.size > 0) {
    console.log('            biggest parts (source size before minification):');
    const top = topGroups(
      editor.files.map((f) => f.file),
      modules,
      sizes,
      20,
    );
    for (const [group, bytes] of top) console.log(`              ${kb(bytes).padStart(9)}  ${group}`);
  }
  if (modules.size === 0) {
    console.log('  editor-code check: skipped module ids (--skip-build); file names only');
  }
  if (args['sizes-only']) {
    const ok = landing.jsGzip <= TARGET_LANDING_JS_GZIP && editor.jsGzip <= TARGET_EDITOR_JS_GZIP;
    console.log(
      `\nlanding ${kb(landing.jsGzip)} (≤ ${kb(TARGET_LANDING_JS_GZIP)}), editor ${kb(editor.jsGzip)} (≤ ${kb(TARGET_EDITOR_JS_GZIP)}): ${ok ? 'PASS' : 'FAIL'}`,
    );
    process.exitCode = ok ? 0 : 1;
    return;
  }
  console.log(
    landing.editorModules.length === 0
      ? '  editor code in landing initial JS: none'
      : `  editor code in landing initial JS: ${landing.editorModules.length} modules, e.g. ${landing.editorModules.slice(0, 5).join(', ')}`,
  );

  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'qw-bench-web-'));
  const server = await startServer(port, dataDir);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: args['reduced-motion'] ? [...CHROME_FLAGS, '--force-prefers-reduced-motion'] : CHROME_FLAGS,
  });
  const runs: LighthouseRun[] = [];
  try {
    const url = `http://127.0.0.1:${port}${args.path}`;
    console.log(
      `\nLighthouse ${args.desktop ? 'desktop' : 'mobile (default: Moto G class, simulated slow 4G)'} on ${url}, ${RUNS} runs:`,
    );
    for (let i = 0; i < RUNS; i++) {
      let run: LighthouseRun;
      try {
        run = await runLighthouse(url, chrome.port);
      } catch (error) {
        console.log(`  run ${i + 1}: ${(error as Error).message} (not counted)`);
        continue;
      }
      runs.push(run);
      console.log(
        `  run ${i + 1}: performance ${run.performance}, accessibility ${run.accessibility} ` +
          `(FCP ${Math.round(run.fcpMs)} ms, LCP ${Math.round(run.lcpMs)} ms, TBT ${Math.round(run.tbtMs)} ms, CLS ${run.cls.toFixed(3)})`,
      );
    }
  } finally {
    await chrome.kill();
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }

  if (runs.length === 0) throw new Error('every Lighthouse run failed');
  const perf = runs.map((r) => r.performance);
  const a11y = runs.map((r) => r.accessibility);
  const failed = [...new Set(runs.flatMap((r) => r.failedA11y))];
  const checks = [
    [
      `landing initial JS ≤ ${kb(TARGET_LANDING_JS_GZIP)} gzip`,
      landing.jsGzip <= TARGET_LANDING_JS_GZIP,
      kb(landing.jsGzip),
    ],
    [
      `editor route initial JS ≤ ${kb(TARGET_EDITOR_JS_GZIP)} gzip`,
      editor.jsGzip <= TARGET_EDITOR_JS_GZIP,
      kb(editor.jsGzip),
    ],
    [
      'no editor code in landing initial JS',
      landing.editorModules.length === 0,
      String(landing.editorModules.length),
    ],
    [
      `Lighthouse performance ≥ ${TARGET_PERFORMANCE} (median)`,
      median(perf) >= TARGET_PERFORMANCE,
      `best ${Math.max(...perf)}, median ${median(perf)}`,
    ],
    [
      `Lighthouse accessibility ≥ ${TARGET_ACCESSIBILITY} (median)`,
      median(a11y) >= TARGET_ACCESSIBILITY,
      `best ${Math.max(...a11y)}, median ${median(a11y)}`,
    ],
  ] as const;
  console.log('\nSummary:');
  for (const [name, ok, value] of checks) console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${name}: ${value}`);
  if (failed.length) console.log(`  accessibility audits not passed: ${failed.join('; ')}`);
  console.log(
    `\nDone in ${((Date.now() - started) / 1000).toFixed(0)} s (${os.cpus().length} CPUs, ${new Date().toISOString()}).`,
  );
  process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
