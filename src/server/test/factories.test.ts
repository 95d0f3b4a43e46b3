import { afterAll, beforeAll, expect, it } from 'vitest';
import { requireUser } from '../plugins';
import { createUser } from './factories';
import { startTestServer, type TestServer } from './server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    configure: (app) => {
      app.get('/api/__whoami', async (request) => ({ id: (await requireUser(request)).userId }));
    },
  });
});
afterAll(() => server?.close());

it('a factory user is signed in: its token identifies it, and no token is 401 session_missing', async () => {
  const user = await createUser(server);
  const me = await server.request('GET', '/api/__whoami', { token: user.token });
  expect(me.status).toBe(200);
  expect(me.body).toEqual({ id: user.id });
  const anonymous = await server.request('GET', '/api/__whoami');
  expect(anonymous.status).toBe(401);
  expect(anonymous.body).toEqual({ message: 'Auth session missing!', code: 'session_missing' });
});
