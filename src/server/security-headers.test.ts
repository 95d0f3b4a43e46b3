import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EARLY_STATE_SCRIPT } from '../shared/editor-early-request';
import { FIRST_PAINT_SCRIPT } from '../shared/first-paint';
import { inlineFirstPaintScript } from '../../scripts/vite-first-paint';
import { withEarlyRequest } from '../../scripts/vite-editor-html';
import { startTestServer, type TestServer } from './test/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

it('every response carries the security headers, API errors included', async () => {
  for (const url of ['/api/health', '/api/documents', '/api/nothing-here']) {
    const response = await fetch(`${server.url}${url}`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    // WebAssembly may be compiled (live grammar), but eval stays forbidden.
    expect(csp).not.toMatch(/'unsafe-eval'/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=/);
  }
});

it('the first-paint script written into index.html is allowed by its hash, and inline scripts are not', async () => {
  const plugin = inlineFirstPaintScript();
  const transform = plugin.transformIndexHtml as (html: string) => string;
  const html = transform('<head><!-- first-paint --></head>');
  const inline = /<script>([^<]*)<\/script>/u.exec(html)?.[1];
  expect(inline).toBe(FIRST_PAINT_SCRIPT);
  const csp = (await fetch(`${server.url}/api/health`)).headers.get('content-security-policy') ?? '';
  const hash = createHash('sha256').update(inline!).digest('base64');
  const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src')) ?? '';
  expect(scriptSrc).toContain(`'sha256-${hash}'`);
  expect(scriptSrc).not.toContain('unsafe-inline');
});

it('the editor page’s early-request script is written first into its head and allowed by its hash', async () => {
  const html = withEarlyRequest('<head>\n<meta charset="UTF-8" />\n<title>Quillwright</title></head>');
  const inline = /<meta charset="UTF-8" \/>\n<script>([^<]*)<\/script>/u.exec(html)?.[1];
  expect(inline).toBe(EARLY_STATE_SCRIPT);
  const csp = (await fetch(`${server.url}/api/health`)).headers.get('content-security-policy') ?? '';
  const hash = createHash('sha256').update(inline!).digest('base64');
  const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src')) ?? '';
  expect(scriptSrc).toContain(`'sha256-${hash}'`);
});
