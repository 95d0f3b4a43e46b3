import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_USER_SETTINGS } from '../../shared/schemas/settings';
import { createUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

describe('GET /api/me/settings', () => {
  it('answers the defaults for a user who never saved settings', async () => {
    const user = await createUser(server);
    const res = await server.request('GET', '/api/me/settings', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(DEFAULT_USER_SETTINGS);
  });

  it('answers 401 without a token', async () => {
    const res = await server.request('GET', '/api/me/settings');
    expect(res.status).toBe(401);
    expect(res.body.code).toEqual(expect.any(String));
  });

  it('answers 401 with a forged token', async () => {
    const res = await server.request('GET', '/api/me/settings', { token: 'not.a.jwt' });
    expect(res.status).toBe(401);
  });
});

describe('PUT /api/me/settings', () => {
  it('saves a partial update, keeps the other fields and returns the whole settings', async () => {
    const user = await createUser(server);
    const res = await server.request('PUT', '/api/me/settings', {
      token: user.token,
      body: { preferences: { theme: 'dark', fontFamily: 'serif' }, notifications: { marketing: true } },
    });
    expect(res.status).toBe(200);
    expect(res.body.preferences).toEqual({
      ...DEFAULT_USER_SETTINGS.preferences,
      theme: 'dark',
      fontFamily: 'serif',
    });
    expect(res.body.notifications).toEqual({ ...DEFAULT_USER_SETTINGS.notifications, marketing: true });
    expect(Date.parse(res.body.updated_at)).not.toBeNaN();

    const second = await server.request('PUT', '/api/me/settings', {
      token: user.token,
      body: { preferences: { focusModeDefault: true } },
    });
    expect(second.status).toBe(200);
    expect(second.body.preferences).toMatchObject({
      theme: 'dark',
      fontFamily: 'serif',
      focusModeDefault: true,
    });
    expect(second.body.notifications.marketing).toBe(true);

    const read = await server.request('GET', '/api/me/settings', { token: user.token });
    expect(read.body).toEqual(second.body);
  });

  it("is per user: one user's save does not change another's settings", async () => {
    const alice = await createUser(server);
    const bob = await createUser(server);
    await server.request('PUT', '/api/me/settings', {
      token: alice.token,
      body: { preferences: { theme: 'light', fontSize: 'large' } },
    });
    const bobs = await server.request('GET', '/api/me/settings', { token: bob.token });
    expect(bobs.body).toEqual(DEFAULT_USER_SETTINGS);
  });

  it.each([
    ['an unknown theme', { preferences: { theme: 'sepia' } }],
    ['a wrong type', { preferences: { autoSave: 'yes' } }],
    ['an unknown preference', { preferences: { colour: 'red' } }],
    ['an unknown top-level key', { plan: 'professional' }],
    ['a non-object body', [1, 2, 3]],
  ])('refuses %s with 400 validation_failed', async (_name, body) => {
    const user = await createUser(server);
    const res = await server.request('PUT', '/api/me/settings', { token: user.token, body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    const read = await server.request('GET', '/api/me/settings', { token: user.token });
    expect(read.body).toEqual(DEFAULT_USER_SETTINGS);
  });

  it('answers 400 for malformed JSON', async () => {
    const user = await createUser(server);
    const res = await server.request('PUT', '/api/me/settings', {
      token: user.token,
      rawBody: '{"preferences":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toEqual(expect.any(String));
  });

  it('answers 401 without a token and stores nothing', async () => {
    const res = await server.request('PUT', '/api/me/settings', { body: { preferences: { theme: 'dark' } } });
    expect(res.status).toBe(401);
  });

  it('keeps concurrent partial saves of different fields', async () => {
    const user = await createUser(server);
    await Promise.all([
      server.request('PUT', '/api/me/settings', {
        token: user.token,
        body: { preferences: { theme: 'dark' } },
      }),
      server.request('PUT', '/api/me/settings', {
        token: user.token,
        body: { notifications: { updates: false } },
      }),
      server.request('PUT', '/api/me/settings', {
        token: user.token,
        body: { preferences: { autoSave: false } },
      }),
    ]);
    const read = await server.request('GET', '/api/me/settings', { token: user.token });
    expect(read.body.preferences).toMatchObject({ theme: 'dark', autoSave: false });
    expect(read.body.notifications.updates).toBe(false);
  });
});
