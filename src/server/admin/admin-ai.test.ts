import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { aiProviderSettings, users } from '../db/schema';
import { AI_PROVIDER_FAILED_MESSAGE } from '../ai';
import { OutboundClient } from '../outbound';
import { startFakeOpenAI } from '../test/fake-openai';
import type { FakeProvider } from '../test/fake-provider';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type ApiResponse, type TestServer } from '../test/server';
import { setRole } from '../accounts';

const SAMPLE = 'Our team have finished the report and we think its good.';
const SECRET_KEY = 'sk-live-9f8e7d6c5b4a39281706f5e4d3c2b1a0';

/** Every response body and log line of a server, to prove the key never leaves it. */
function recorder(server: () => TestServer) {
  const bodies: string[] = [];
  const request = async (...args: Parameters<TestServer['request']>): Promise<ApiResponse> => {
    const res = await server().request(...args);
    bodies.push(res.text);
    return res;
  };
  return { bodies, request };
}

describe('instance admin and the AI settings', () => {
  let fake: FakeProvider;
  let server: TestServer;
  let admin: TestUser;
  let member: TestUser;
  const logLines: string[] = [];
  const { bodies, request } = recorder(() => server);

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startTestServer({
      // No provider in the environment, and detection only where the test says. The fake providers listen on
      // loopback, which the admin opens to the AI providers explicitly (as for a local model server).
      env: { AI_LOCAL_SERVERS: 'off', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' },
      logStream: { write: (line) => void logLines.push(line) },
    });
    admin = await createUser(server, { role: 'admin' });
    member = await createUser(server);
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it('the user object carries the role: admin for the admin, member for everyone else', async () => {
    expect((await request('GET', '/api/auth/user', { token: admin.token })).body.role).toBe('admin');
    expect((await request('GET', '/api/auth/user', { token: member.token })).body.role).toBe('member');
  });

  it('members get 403 forbidden on every admin route, anonymous callers 401', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/admin/ai', undefined],
      ['PUT', '/api/admin/ai', { providers: [] }],
      ['POST', '/api/admin/ai/test', { id: 'env-openai' }],
      ['POST', '/api/admin/ai/detect', {}],
    ] as const) {
      const asMember = await request(method, path, { token: member.token, body });
      expect(asMember.status, path).toBe(403);
      expect(asMember.body.code).toBe('forbidden');
      expect((await request(method, path, { body })).status, path).toBe(401);
    }
  });

  it('without a provider, AI answers 503 ai_unavailable naming the AI settings', async () => {
    const res = await request('POST', '/api/ai/improve', { token: member.token, body: { text: SAMPLE } });
    expect(res.status).toBe(503);
    expect(res.body.message).toContain('Account settings → AI');
  });

  it('a provider added by the admin serves the next request, without a restart; the key stays sealed', async () => {
    const put = await request('PUT', '/api/admin/ai', {
      token: admin.token,
      body: {
        providers: [
          { kind: 'openai-compatible', base_url: fake.baseUrl, model: 'local-model', api_key: SECRET_KEY },
        ],
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.providers).toHaveLength(1);
    expect(put.body.providers[0]).toMatchObject({
      kind: 'openai-compatible',
      base_url: fake.baseUrl,
      model: 'local-model',
      enabled: true,
      has_key: true,
      source: 'settings',
    });

    const improve = await request('POST', '/api/ai/improve', { token: member.token, body: { text: SAMPLE } });
    expect(improve.status).toBe(200);
    expect(improve.body.improvement).toBe('The improved text.');
    const call = fake.requests.at(-1)!;
    expect(call.body.model).toBe('local-model');
    expect(call.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);

    // At rest the key is sealed: neither the key nor a recognisable part of it is in the row.
    const [row] = await server.database.db.select().from(aiProviderSettings);
    expect(row!.apiKeySealed).toMatch(/^v1:/);
    expect(row!.apiKeySealed).not.toContain(SECRET_KEY.slice(8, 20));
  });

  it('a PUT without api_key keeps the stored key; reordering and disabling apply at once', async () => {
    const current = (await request('GET', '/api/admin/ai', { token: admin.token })).body.providers[0];
    const second = await startFakeOpenAI({ tokens: ['From the second.'] });
    try {
      const put = await request('PUT', '/api/admin/ai', {
        token: admin.token,
        body: {
          providers: [
            { kind: 'openai-compatible', base_url: second.baseUrl, model: 'second-model' },
            { id: current.id, kind: 'openai-compatible', base_url: fake.baseUrl, model: 'local-model' },
          ],
        },
      });
      expect(put.body.providers.map((p: any) => [p.model, p.has_key])).toEqual([
        ['second-model', false],
        ['local-model', true],
      ]);
      const first = await request('POST', '/api/ai/improve', { token: member.token, body: { text: SAMPLE } });
      expect(first.body.improvement).toBe('From the second.');

      const disabled = put.body.providers.map((p: any, i: number) => ({ ...p, enabled: i !== 0 }));
      await request('PUT', '/api/admin/ai', { token: admin.token, body: { providers: disabled } });
      const next = await request('POST', '/api/ai/improve', { token: member.token, body: { text: SAMPLE } });
      expect(next.body.improvement).toBe('The improved text.');
      expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    } finally {
      await second.close();
    }
    // Back to one provider for the tests below.
    const providers = (await request('GET', '/api/admin/ai', { token: admin.token })).body.providers.filter(
      (p: any) => p.model === 'local-model',
    );
    await request('PUT', '/api/admin/ai', { token: admin.token, body: { providers } });
  });

  it('Test makes a real call and reports ok, latency and the answer; a failing provider its error', async () => {
    const { id } = (await request('GET', '/api/admin/ai', { token: admin.token })).body.providers[0];
    const before = fake.requests.length;
    const ok = await request('POST', '/api/admin/ai/test', { token: admin.token, body: { id } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, model: 'local-model', message: 'The improved text.' });
    expect(ok.body.latency_ms).toBeGreaterThanOrEqual(0);
    expect(fake.requests.length).toBe(before + 1);
    expect(fake.requests.at(-1)!.path).toBe('/v1/chat/completions');

    fake.failNext(401);
    const bad = await request('POST', '/api/admin/ai/test', { token: admin.token, body: { id } });
    expect(bad.body.ok).toBe(false);
    expect(bad.body.message).toMatch(/401/);

    const unknown = await request('POST', '/api/admin/ai/test', { token: admin.token, body: { id: 'nope' } });
    expect(unknown.status).toBe(404);
  });

  it('a provider failure reaches the writer as one plain sentence; details only in the log and admin page', async () => {
    fake.failNext(500);
    const res = await request('POST', '/api/ai/improve', { token: member.token, body: { text: SAMPLE } });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: AI_PROVIDER_FAILED_MESSAGE, code: 'ai_provider_error' });
    expect(res.text).not.toContain('127.0.0.1');
    expect(
      logLines.some((line) => line.includes('AI provider call failed') && line.includes('HTTP 500')),
    ).toBe(true);
    const page = await request('GET', '/api/admin/ai', { token: admin.token });
    expect(page.body.providers[0].last_error).toBe('HTTP 500');
  });

  it('health says reachable only when the provider answered within the last minute', async () => {
    // The last call (above) failed: not reachable, whatever is configured.
    const down = await request('GET', '/api/ai/health');
    expect(down.body).toMatchObject({ openai: false, anthropic: false });
    expect(down.body.providers[0]).toMatchObject({ kind: 'openai-compatible', reachable: false });
    await request('POST', '/api/ai/improve', { token: member.token, body: { text: SAMPLE } });
    const up = await request('GET', '/api/ai/health');
    expect(up.body.openai).toBe(true);
    expect(up.body.providers).toHaveLength(1);
    expect(up.body.providers[0]).toMatchObject({ reachable: true, kind: 'openai-compatible' });
    expect(up.body.providers[0].latency_ms).toBeGreaterThanOrEqual(0);
    expect(up.text).not.toContain('127.0.0.1');
  });

  it('members have a monthly allowance (402 naming the reset date); admins are unlimited by default', async () => {
    const page = (await request('GET', '/api/admin/ai', { token: admin.token })).body;
    expect(page.allowance).toMatchObject({
      monthly_tokens_per_user: null,
      admins_unlimited: true,
      default_monthly_tokens_per_user: 50_000,
    });
    const writer = await createUser(server);
    // Each call costs 49 tokens (42 in, 7 out): the second call starts at 49 < 60, the third at 98.
    await request('PUT', '/api/admin/ai', {
      token: admin.token,
      body: { providers: page.providers, allowance: { monthly_tokens_per_user: 60, admins_unlimited: true } },
    });
    for (let i = 0; i < 2; i++) {
      const ok = await request('POST', '/api/ai/improve', { token: writer.token, body: { text: SAMPLE } });
      expect(ok.status).toBe(200);
    }
    const over = await request('POST', '/api/ai/improve', { token: writer.token, body: { text: SAMPLE } });
    expect(over.status).toBe(402);
    expect(over.body.code).toBe('quota_exceeded');
    const now = new Date();
    const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const resetWords = reset.toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
    expect(over.body.message).toBe(
      `You have used this month's 60 AI tokens. Your allowance resets on ${resetWords}.`,
    );
    const usage = await request('GET', '/api/ai/usage', { token: writer.token });
    expect(usage.body).toMatchObject({ used: 98, limit: 60, remaining: 0, enforced: true });

    for (let i = 0; i < 3; i++) {
      const asAdmin = await request('POST', '/api/ai/improve', {
        token: admin.token,
        body: { text: SAMPLE },
      });
      expect(asAdmin.status).toBe(200);
    }
    await request('PUT', '/api/admin/ai', {
      token: admin.token,
      body: {
        providers: page.providers,
        allowance: { monthly_tokens_per_user: 60, admins_unlimited: false },
      },
    });
    const adminOver = await request('POST', '/api/ai/improve', {
      token: admin.token,
      body: { text: SAMPLE },
    });
    expect(adminOver.status).toBe(402);
    await request('PUT', '/api/admin/ai', {
      token: admin.token,
      body: {
        providers: page.providers,
        allowance: { monthly_tokens_per_user: null, admins_unlimited: true },
      },
    });
  });

  it('bad settings answer 400 with a code, never a 500', async () => {
    for (const body of [
      { providers: [{ kind: 'gemini', model: 'x' }] },
      { providers: [{ kind: 'openai-compatible', base_url: 'ftp://x', model: 'x' }] },
      { providers: [{ kind: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1', model: '' }] },
      { providers: 'all' },
      { providers: [{ kind: 'openai-compatible', model: 'gpt' }] },
    ]) {
      const res = await request('PUT', '/api/admin/ai', { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.code).toBe('string');
    }
  });

  it('never returns or logs the key', async () => {
    await request('GET', '/api/admin/ai', { token: admin.token });
    for (const text of [...bodies, ...logLines]) {
      expect(text).not.toContain(SECRET_KEY);
      expect(text).not.toContain(SECRET_KEY.slice(3, 20));
    }
    expect(logLines.length).toBeGreaterThan(10);
  });

  it('set-role promotes and demotes, but never the last admin', async () => {
    await setRole(server.database.db, member.email, 'admin');
    expect((await request('GET', '/api/admin/ai', { token: member.token })).status).toBe(200);
    await setRole(server.database.db, member.email, 'member');
    expect((await request('GET', '/api/admin/ai', { token: member.token })).status).toBe(403);
    await expect(setRole(server.database.db, admin.email, 'member')).rejects.toMatchObject({
      code: 'last_admin',
    });
    const [row] = await server.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(row!.role).toBe('admin');
  });
});

describe('rate limits per user', () => {
  let fake: FakeProvider;
  let server: TestServer;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    server = await startTestServer({
      env: { OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: 'fake', AI_LOCAL_SERVERS: 'off' },
    });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it('the 31st generative call in a minute is 429 with Retry-After; another user is not affected', async () => {
    const flooder = await createUser(server);
    const other = await createUser(server);
    const calls = await Promise.all(
      Array.from({ length: 31 }, () =>
        server.request('POST', '/api/ai/improve', { token: flooder.token, body: { text: 'Hi there.' } }),
      ),
    );
    expect(calls.filter((r) => r.status === 200)).toHaveLength(30);
    const limited = calls.find((r) => r.status === 429)!;
    expect(limited.body.code).toBe('over_request_rate_limit');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const otherCall = await server.request('POST', '/api/ai/improve', {
      token: other.token,
      body: { text: 'Hi.' },
    });
    expect(otherCall.status).toBe(200);
  });

  it('grammar and analysis share a budget of 120 a minute', async () => {
    const user = await createUser(server);
    for (let i = 0; i < 120; i++) {
      const res = await server.request('POST', '/api/ai/analyze', {
        token: user.token,
        body: { text: 'Hi.' },
      });
      expect(res.status).toBe(200);
    }
    const grammar = await server.request('POST', '/api/ai/grammar', {
      token: user.token,
      body: { text: 'Hi.' },
    });
    expect(grammar.status).toBe(429);
    expect(grammar.headers.get('retry-after')).toBeTruthy();
  });
});

describe('local model detection', () => {
  let fake: FakeProvider;
  let server: TestServer;
  let admin: TestUser;
  const fetchSpy = vi.spyOn(OutboundClient.prototype, 'fetch');

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    fake.models = ['llama3.2:3b', 'qwen2.5:7b'];
    // One loopback candidate (the fake) and one on another host, which must never be contacted.
    server = await startTestServer({
      env: { AI_LOCAL_SERVERS: `${fake.baseUrl},http://192.0.2.10:11434/v1` },
    });
    admin = await createUser(server, { role: 'admin' });
  });
  afterEach(() => fetchSpy.mockClear());
  afterAll(async () => {
    fetchSpy.mockRestore();
    await server?.close();
    await fake?.close();
  });

  it('Detect finds the local server and its models, contacting nothing but loopback candidates', async () => {
    const res = await server.request('POST', '/api/admin/ai/detect', { token: admin.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.servers).toEqual([
      { name: 'Local server', base_url: fake.baseUrl, models: ['llama3.2:3b', 'qwen2.5:7b'] },
    ]);
    const contacted = fetchSpy.mock.calls
      .map(([input]) => String(input instanceof Request ? input.url : input))
      .filter((url) => !url.startsWith(server.url));
    expect(contacted).toEqual([`${fake.baseUrl}/models`]);
    expect(fake.requests.filter((r) => r.path === '/v1/models').length).toBeGreaterThanOrEqual(1);
  });

  it('what start-up detection found is offered on the admin page, and one click sets it up', async () => {
    const page = await server.request('GET', '/api/admin/ai', { token: admin.token });
    expect(page.body.detected).toHaveLength(1);
    const found = page.body.detected[0];
    const put = await server.request('PUT', '/api/admin/ai', {
      token: admin.token,
      body: { providers: [{ kind: 'openai-compatible', base_url: found.base_url, model: found.models[0] }] },
    });
    expect(put.status).toBe(200);
    const user = await createUser(server);
    const improve = await server.request('POST', '/api/ai/improve', {
      token: user.token,
      body: { text: SAMPLE },
    });
    expect(improve.status).toBe(200);
    expect(fake.requests.at(-1)!.body.model).toBe('llama3.2:3b');
  });
});
