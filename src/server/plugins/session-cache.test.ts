import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../db/schema';
import { createUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { SESSION_CHECK_CACHE_MS } from './session-cache';

describe('session check cache', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(() => server.close());

  it('a sign-out on this instance ends the session at once, even right after a cached check', async () => {
    const user = await createUser(server);
    expect((await server.request('GET', '/api/auth/user', { token: user.token })).status).toBe(200);
    expect((await server.request('POST', '/api/auth/logout', { token: user.token })).status).toBe(204);
    expect((await server.request('GET', '/api/auth/user', { token: user.token })).status).toBe(401);
  });

  it('a revocation made elsewhere (another instance) takes effect within SESSION_CHECK_CACHE_MS', async () => {
    const user = await createUser(server);
    expect((await server.request('GET', '/api/auth/user', { token: user.token })).status).toBe(200);
    // Another instance writes the revocation straight to the shared database.
    await server.database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.userId, user.id));
    const revokedAt = Date.now();
    await expect
      .poll(async () => (await server.request('GET', '/api/auth/user', { token: user.token })).status, {
        timeout: SESSION_CHECK_CACHE_MS + 1_000,
        interval: 100,
      })
      .toBe(401);
    expect(Date.now() - revokedAt).toBeLessThanOrEqual(SESSION_CHECK_CACHE_MS + 1_000);
  });
});
