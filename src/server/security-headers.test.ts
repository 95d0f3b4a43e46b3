import { afterAll, beforeAll, expect, it } from 'vitest';
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
