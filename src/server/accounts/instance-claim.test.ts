import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/server';
import { prepareInstanceClaim } from './instance-claim';
import { client, strongPassword, uniqueEmail } from './test-helpers';

/** Who owns a fresh instance: whoever holds the setup code from the log, or ADMIN_EMAIL; never the first sign-up. */
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function freshInstance(env: Record<string, string> = {}) {
  const lines: string[] = [];
  const server = await startTestServer({
    env: { TRUST_PROXY: 'true', ...env },
    logStream: { write: (line) => void lines.push(line) },
  });
  servers.push(server);
  return { server, api: client(server), log: () => lines.join('') };
}

async function signUp(api: ReturnType<typeof client>, email = uniqueEmail()) {
  const res = await api('POST', '/api/auth/signup', {
    body: { email, password: strongPassword(), data: { full_name: 'First Visitor' } },
  });
  expect(res.status).toBe(200);
  return { email, token: res.body.session.access_token as string, role: res.body.user.role as string };
}

function setupCodeIn(log: string): string {
  const match = /No admin yet: setup code ([A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})/.exec(log);
  if (!match?.[1]) throw new Error(`no setup code in the log: ${log.slice(0, 2000)}`);
  return match[1];
}

// Each test starts its own instance, which takes a while on a busy machine.
describe('claiming a fresh instance', { timeout: 120_000 }, () => {
  it('the first sign-up is a member; the setup code from the log makes that account admin, once', async () => {
    const { api, log } = await freshInstance();
    const first = await signUp(api);
    expect(first.role).toBe('member');
    expect((await api('GET', '/api/admin/ai', { token: first.token })).status).toBe(403);
    expect((await api('GET', '/api/auth/setup', { token: first.token })).body).toEqual({ has_admin: false });

    const code = setupCodeIn(log());
    expect((await api('POST', '/api/auth/setup', { body: { code } })).status).toBe(401);
    const wrong = await api('POST', '/api/auth/setup', {
      token: first.token,
      body: { code: 'AAAAA-BBBBB-CCCCC' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('invalid_setup_code');

    // Typed in lower case with spaces: still the code.
    const claimed = await api('POST', '/api/auth/setup', {
      token: first.token,
      body: { code: ` ${code.toLowerCase().replaceAll('-', ' ')} ` },
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body.role).toBe('admin');
    expect((await api('GET', '/api/admin/ai', { token: first.token })).status).toBe(200);
    expect((await api('GET', '/api/auth/setup', { token: first.token })).body).toEqual({ has_admin: true });

    const second = await signUp(api);
    const again = await api('POST', '/api/auth/setup', { token: second.token, body: { code } });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('invalid_setup_code');
    expect((await api('GET', '/api/auth/user', { token: second.token })).body.role).toBe('member');
  });

  it('ADMIN_EMAIL: that account is admin from its sign-up (or from the next start), any other is a member', async () => {
    const adminEmail = uniqueEmail('owner');
    const { server, api } = await freshInstance({ ADMIN_EMAIL: adminEmail.toUpperCase() });
    const someone = await signUp(api);
    expect(someone.role).toBe('member');
    const owner = await signUp(api, adminEmail);
    expect(owner.role).toBe('admin');
    expect((await api('GET', '/api/admin/ai', { token: owner.token })).status).toBe(200);

    // ADMIN_EMAIL changed to an existing account: it becomes admin at the next start.
    expect(await prepareInstanceClaim(server.database.db, { ADMIN_EMAIL: someone.email })).toEqual({
      hasAdmin: true,
    });
    expect((await api('GET', '/api/auth/user', { token: someone.token })).body.role).toBe('admin');
  });
});
