import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { MCP_PATH } from '../../shared/constants';

let server: TestServer;
let alice: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createUser(server);
});
afterAll(() => server?.close());

const ORIGIN = 'https://mcp-client.example';

function expectOpen(res: { headers: Headers }, what: string) {
  expect(res.headers.get('access-control-allow-origin'), what).toBe('*');
  expect(res.headers.get('access-control-allow-credentials'), what).toBeNull();
  const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
  expect(exposed, what).toContain('mcp-session-id');
  expect(exposed, what).toContain('www-authenticate');
}

async function preflight(path: string, method: string) {
  return server.request('OPTIONS', path, {
    headers: {
      origin: ORIGIN,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
    },
  });
}

describe('CORS for browser-based MCP clients', () => {
  it('answers the preflight of /mcp, the OAuth endpoints and the metadata: any origin, no credentials', async () => {
    for (const [path, method] of [
      [MCP_PATH, 'POST'],
      ['/oauth/token', 'POST'],
      ['/oauth/register', 'POST'],
      ['/oauth/revoke', 'POST'],
      ['/.well-known/oauth-protected-resource/mcp', 'GET'],
      ['/.well-known/oauth-protected-resource', 'GET'],
      ['/.well-known/oauth-authorization-server', 'GET'],
    ] as const) {
      const res = await preflight(path, method);
      expect(res.status, path).toBe(204);
      expectOpen(res, path);
      expect(res.headers.get('access-control-allow-methods'), path).toContain(method);
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const header of ['authorization', 'content-type', 'mcp-protocol-version'])
        expect(allowed, path).toContain(header);
      expect(Number(res.headers.get('access-control-max-age')), path).toBeGreaterThan(0);
    }
  });

  it('lets a page read the 401 of /mcp with its WWW-Authenticate, and a tool answer with a token', async () => {
    const refused = await server.request('POST', MCP_PATH, {
      headers: { origin: ORIGIN, accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=/);
    expectOpen(refused, 'POST /mcp 401');

    const made = await server.request('POST', '/api/me/api-tokens', {
      token: alice.token,
      body: { name: 'browser agent', scopes: ['read'] },
    });
    const answered = await server.request('POST', MCP_PATH, {
      token: made.body.token as string,
      headers: { origin: ORIGIN, accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'page', version: '1' },
        },
      },
    });
    expect(answered.status).toBe(200);
    expectOpen(answered, 'POST /mcp 200');
  });

  it('sends the headers on the metadata and on OAuth errors too', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
    ]) {
      const res = await server.request('GET', path, { headers: { origin: ORIGIN } });
      expect(res.status, path).toBe(200);
      expectOpen(res, path);
    }
    const token = await server.request('POST', '/oauth/token', {
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      rawBody: 'grant_type=authorization_code&code=nope&client_id=nope',
    });
    expect(token.status).toBeGreaterThanOrEqual(400);
    expect(token.status).toBeLessThan(500);
    expectOpen(token, 'POST /oauth/token error');
  });

  it('keeps the rest of /api without CORS', async () => {
    const list = await server.request('GET', '/api/documents', {
      token: alice.token,
      headers: { origin: ORIGIN },
    });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBeNull();
    const pre = await preflight('/api/documents', 'GET');
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('access-control-allow-methods')).toBeNull();
    const page = await server.request('GET', '/oauth/authorize?client_id=x', { headers: { origin: ORIGIN } });
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
  });
});
