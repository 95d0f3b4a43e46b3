import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../test/server';
import { collabUrl } from './testing';

/**
 * A page of another site must not open the collaboration socket with a writer's browser (cross-site WebSocket
 * hijacking): the handshake's Origin must be the server's own, APP_URL's, or one of ALLOWED_ORIGINS.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      APP_URL: 'https://write.example.com',
      ALLOWED_ORIGINS: 'https://desk.example.org/, http://127.0.0.2:8080',
    },
  });
});
afterAll(async () => {
  await server?.close();
});

/** Opens the socket with these handshake headers: 'open', or the HTTP status it was refused with. */
function handshake(headers: Record<string, string>): Promise<'open' | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(collabUrl(server.url), { headers });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.on('error', (error) => {
      if (!('statusCode' in error)) reject(error);
    });
  });
}

describe('collaboration socket Origin', () => {
  it('refuses a page of another origin before the upgrade', async () => {
    expect(await handshake({ origin: 'https://evil.example' })).toBe(403);
    // Same host, other scheme or port: another origin.
    expect(await handshake({ origin: server.url.replace('http:', 'https:') })).toBe(403);
    expect(await handshake({ origin: 'https://write.example.com:8443' })).toBe(403);
    expect(await handshake({ origin: 'null' })).toBe(403);
  });

  it('accepts its own origin, APP_URL’s, the configured ones, and clients that send none', async () => {
    expect(await handshake({ origin: server.url })).toBe('open');
    expect(await handshake({ origin: 'https://write.example.com' })).toBe('open');
    expect(await handshake({ origin: 'https://desk.example.org' })).toBe('open');
    expect(await handshake({ origin: 'http://127.0.0.2:8080' })).toBe('open');
    expect(await handshake({})).toBe('open');
  });

  it('takes its own origin from X-Forwarded-Proto and -Host only behind a trusted proxy', async () => {
    const forwarded = {
      origin: 'https://proxy.example.net',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'proxy.example.net',
    };
    expect(await handshake(forwarded)).toBe(403);
    const proxied = await startTestServer({ env: { TRUST_PROXY: 'true' } });
    try {
      const socket = new WebSocket(collabUrl(proxied.url), { headers: forwarded });
      const outcome = await new Promise<string | number>((resolve) => {
        socket.on('open', () => resolve('open'));
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.on('error', () => {});
      });
      socket.terminate();
      expect(outcome).toBe('open');
    } finally {
      await proxied.close();
    }
  });
});
