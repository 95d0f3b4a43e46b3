/**
 * What the browser benchmarks (bench/editor.ts, bench/grammar-live.ts, bench/ghost.ts) share: Debian's
 * Chromium, the client built into a directory and answered from it, a signed-in user with a document, a signed-in
 * browser profile, percentiles, and the run reports they (and bench/memory.ts) add to
 * docs/performance-history.md.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { format, resolveConfig } from 'prettier';
import { build } from 'vite';
import { SESSION_STORAGE_KEY } from '../src/shared/first-paint';
import type { TestServer } from '../src/server/test/server';

const CHROMIUM = '/usr/bin/chromium';
const PERFORMANCE_HISTORY = path.resolve('docs/performance-history.md');
/** The writer's "Live grammar check" switch, where the assistant panel stores it. */
const LIVE_GRAMMAR_KEY = 'quillwright.ai.liveGrammar';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Pages answered by route() count as non-local to Chromium, which would then refuse their WebSocket to
    // 127.0.0.1 (Local Network Access); the pages do live on 127.0.0.1, so the check is turned off.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-features=LocalNetworkAccessChecks',
    ],
  });
}

/** Builds the client into a new temporary directory (the caller removes it), to be answered by serveStatic. */
export async function buildClient(name: string): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `qw-bench-${name}-`));
  console.log('Building the client…');
  await build({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'error',
    build: { outDir: dir, emptyOutDir: true },
  });
  return dir;
}

/**
 * A fresh browser profile at 1280×800, signed in with `session`. `liveGrammar` sets the writer's live grammar
 * switch; left out, the app's default stands.
 */
export async function signedInContext(
  browser: Browser,
  session: unknown,
  options: { liveGrammar?: boolean | undefined } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const liveGrammar = options.liveGrammar === undefined ? null : options.liveGrammar ? 'on' : 'off';
  await context.addInitScript(
    ([sessionKey, sessionValue, grammarKey, grammarValue]) => {
      window.localStorage.setItem(sessionKey, sessionValue);
      if (grammarValue !== null) window.localStorage.setItem(grammarKey, grammarValue);
    },
    [SESSION_STORAGE_KEY, JSON.stringify(session), LIVE_GRAMMAR_KEY, liveGrammar] as const,
  );
  return context;
}

/** Answers static files from a build directory (SPA fallback to index.html); /api goes through. */
export async function serveStatic(target: Page | BrowserContext, root: string): Promise<void> {
  await target.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.pathname.startsWith('/api/')) return route.continue();
    const file = path.join(root, decodeURIComponent(url.pathname));
    const served =
      file.startsWith(root) && existsSync(file) && !file.endsWith('/') && path.extname(file)
        ? file
        : path.join(root, 'index.html');
    // WebAssembly.instantiateStreaming needs the right type, or harper.js falls back to a slower compile.
    const contentType = served.endsWith('.wasm') ? 'application/wasm' : undefined;
    return route.fulfill({ path: served, ...(contentType ? { contentType } : {}) });
  });
}

/** Signs up a fresh user through the API and creates one document with `content`. */
export async function createBenchDocument(server: TestServer, title: string, content: object) {
  const email = `bench-${Date.now()}@example.test`;
  const signUp = await server.request('POST', '/api/auth/signup', {
    body: { email, password: 'correct-horse-battery-staple-42', data: { full_name: 'Bench' } },
  });
  if (signUp.status !== 200 || !signUp.body.session) throw new Error(`sign-up failed: ${signUp.text}`);
  const session = signUp.body.session as { access_token: string };
  const created = await server.request('POST', '/api/documents', {
    token: session.access_token,
    body: { title, content },
  });
  if (created.status !== 201) throw new Error(`document creation failed: ${created.status} ${created.text}`);
  return { session, documentId: created.body.id as string };
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export function summarize(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    best: sorted[0] ?? Number.NaN,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
  };
}

/** How a run report starts: when, on what, and the command that made it. */
export function runLine(command: string): string {
  const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
  return `Run ${stamp} UTC on the shared 2-core machine, headless Debian Chromium (--disable-gpu), ${command}`;
}

/**
 * Adds a run's report to docs/performance-history.md at the top of its benchmark's section (the `## ` heading that
 * names the same `(bench:…)` as `heading`; appended when missing), so that section stays newest first.
 * The current table in docs/performance.md is updated by hand from it. Formatted like the repository.
 */
export async function writePerformanceSection(heading: string, section: string): Promise<void> {
  const existing = existsSync(PERFORMANCE_HISTORY)
    ? readFileSync(PERFORMANCE_HISTORY, 'utf8')
    : '# Performance history\n';
  const title = heading.replace(/^#+\s*/, '');
  const benchmark = /\((bench:[\w-]+)/.exec(title)?.[1] ?? title;
  const report = section.trim().startsWith(heading) ? section.trim().slice(heading.length) : section;
  const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const entry = `### ${stamp} UTC: run report, ${title}\n\n${report.trim()}\n\n`;
  const group = existing
    .split('\n')
    .findIndex((line) => /^## /.test(line) && line.includes(`(${benchmark})`));
  let next: string;
  if (group === -1) {
    next = `${existing.trimEnd()}\n\n## ${title}\n\n${entry}`;
  } else {
    const groupStart =
      existing
        .split('\n')
        .slice(0, group + 1)
        .join('\n').length + 1;
    const groupEnd = existing.indexOf('\n## ', groupStart);
    const firstEntry = existing.indexOf('\n### ', groupStart);
    const at =
      firstEntry !== -1 && (groupEnd === -1 || firstEntry < groupEnd)
        ? firstEntry + 1
        : groupEnd === -1
          ? existing.length
          : groupEnd + 1;
    next = `${existing.slice(0, at).trimEnd()}\n\n${entry}${existing.slice(at)}`;
  }
  // format:check runs over docs/ too.
  const options = (await resolveConfig(PERFORMANCE_HISTORY)) ?? {};
  writeFileSync(
    PERFORMANCE_HISTORY,
    await format(`${next.trimEnd()}\n`, { ...options, filepath: PERFORMANCE_HISTORY }),
  );
  console.log('Written to docs/performance-history.md');
}
