import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

/** What standard HTTP clients send: `Content-Type: application/json` and no body on routes that take none. */
describe('JSON request bodies', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('signs out on POST /api/auth/logout with Content-Type: application/json and no body', async () => {
    const user = await createUser(server);
    const res = await server.request('POST', '/api/auth/logout', { token: user.token, rawBody: '' });
    expect(res.status).toBe(204);
    const after = await server.request('GET', '/api/auth/user', { token: user.token });
    expect(after.status).toBe(401);
  });

  it('answers create-portal with no body exactly as with an empty object', async () => {
    const user = await createUser(server);
    const empty = await server.request('POST', '/api/stripe/create-portal', {
      token: user.token,
      rawBody: '',
    });
    const object = await server.request('POST', '/api/stripe/create-portal', {
      token: user.token,
      rawBody: '{}',
    });
    expect(object.body.code).not.toBe('bad_request');
    expect({ status: empty.status, body: empty.body }).toEqual({ status: object.status, body: object.body });
  });

  it('answers a route that needs a body, sent none, with 400 validation_failed', async () => {
    const res = await server.request('POST', '/api/auth/signup', { rawBody: '' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
  });

  it.each([
    ['truncated', '{"email": "a@example.com", '],
    ['not JSON at all', 'email=a@example.com'],
    ['a lone brace', '{'],
  ])('still refuses malformed JSON (%s) with 400 and a JSON error', async (_label, rawBody) => {
    const res = await server.request('POST', '/api/auth/signup', { rawBody });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body.code).toBe('invalid_json');
  });
});
