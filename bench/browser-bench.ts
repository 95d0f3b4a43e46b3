/**
 * What the browser benchmarks (bench/editor.ts, bench/grammar-live.ts) share: Debian's Chromium, the built
 * client answered from a directory, a signed-in user with a document, percentiles, and their section of
 * docs/performance.md.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { format, resolveConfig } from 'prettier';
import type { TestServer } from '../src/server/test/server';

const CHROMIUM = '/usr/bin/chromium';
const PERFORMANCE_DOC = path.resolve('docs/performance.md');

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

/** Replaces the section under `heading` in docs/performance.md (or appends it), formatted like the repository. */
export async function writePerformanceSection(heading: string, section: string): Promise<void> {
  const existing = existsSync(PERFORMANCE_DOC) ? readFileSync(PERFORMANCE_DOC, 'utf8') : '# Performance\n';
  const start = existing.indexOf(heading);
  let next: string;
  if (start === -1) {
    next = `${existing.trimEnd()}\n\n${section}`;
  } else {
    const after = existing.indexOf('\n## ', start + heading.length);
    next = `${existing.slice(0, start)}${section.trimEnd()}\n\n${after === -1 ? '' : existing.slice(after + 1)}`;
  }
  // format:check runs over docs/ too.
  const options = (await resolveConfig(PERFORMANCE_DOC)) ?? {};
  writeFileSync(
    PERFORMANCE_DOC,
    await format(`${next.trimEnd()}\n`, { ...options, filepath: PERFORMANCE_DOC }),
  );
}
