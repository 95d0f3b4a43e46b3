import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/server';
import { testDatabaseKind } from '../test/database';

describe('health and error shape', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reports ok, the running version and which database is in use', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const res = await server.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version, database: testDatabaseKind() });
  });

  it('answers 503 "draining" once the server is stopping, while other routes still answer', async () => {
    server.app.lifecycle.draining = true;
    try {
      const res = await server.request('GET', '/api/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 'draining', database: testDatabaseKind() });
      const other = await server.request('GET', '/api/does-not-exist');
      expect(other.status).toBe(404);
    } finally {
      server.app.lifecycle.draining = false;
    }
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await server.request('GET', '/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
    expect(typeof res.body.message).toBe('string');
  });
});
