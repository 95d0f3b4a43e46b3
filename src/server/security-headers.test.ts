import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-permitted-cross-domain-policies': 'none',
      'x-xss-protection': '0',
    });
  }
});

describe('Strict-Transport-Security', () => {
  it('is not sent over plain HTTP, nor for an X-Forwarded-Proto the server does not trust', async () => {
    for (const headers of [{}, { 'x-forwarded-proto': 'https' }] as Record<string, string>[]) {
      const response = await fetch(`${server.url}/api/health`, { headers });
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('is sent over HTTPS at a trusted proxy, without includeSubDomains unless configured', async () => {
    const proxied = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    const everySubdomain = await startTestServer({
      env: { TRUST_PROXY: 'true', HSTS_INCLUDE_SUBDOMAINS: 'true' },
    });
    try {
      const https = { 'x-forwarded-proto': 'https' };
      const plain = await fetch(`${proxied.url}/api/health`, { headers: { 'x-forwarded-proto': 'http' } });
      expect(plain.headers.get('strict-transport-security')).toBeNull();
      for (const url of ['/api/health', '/api/nothing-here']) {
        const response = await fetch(`${proxied.url}${url}`, { headers: https });
        expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000');
      }
      const subdomains = await fetch(`${everySubdomain.url}/api/health`, { headers: https });
      expect(subdomains.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await proxied.close();
      await everySubdomain.close();
    }
  });
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
