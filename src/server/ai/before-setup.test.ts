import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

// Nothing listens on the discard port of this machine's loopback address: detection finds no server there.
const NOTHING_LISTENS = 'http://127.0.0.1:9/v1';

describe('before any AI provider is added', () => {
  let server: TestServer;
  let admin: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    server = await startTestServer({
      env: { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', AI_LOCAL_SERVERS: NOTHING_LISTENS },
    });
    admin = await createUser(server, { role: 'admin' });
    member = await createUser(server);
  });
  afterAll(() => server?.close());

  it('shows the allowance that will apply: unlimited for the admin, the monthly tokens for a member', async () => {
    const forAdmin = await server.request('GET', '/api/ai/usage', { token: admin.token });
    expect(forAdmin.status).toBe(200);
    expect(forAdmin.body).toMatchObject({ unlimited: true, enforced: false, used: 0 });

    const forMember = await server.request('GET', '/api/ai/usage', { token: member.token });
    expect(forMember.body).toMatchObject({ unlimited: false, limit: 50_000, used: 0 });
  });

  it('detection that finds no local model server says where it looked', async () => {
    const res = await server.request('POST', '/api/admin/ai/detect', { token: admin.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ servers: [], checked: [NOTHING_LISTENS] });
  });
});
