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

  it('reports ok and which database is in use', async () => {
    const res = await server.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: testDatabaseKind() });
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await server.request('GET', '/api/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
    expect(typeof res.body.message).toBe('string');
  });
});
