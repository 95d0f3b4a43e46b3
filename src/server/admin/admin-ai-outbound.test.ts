import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../test/fake-openai';
import type { FakeProvider } from '../test/fake-provider';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

/**
 * The AI settings cannot be used to look around the server's own network: the Test button of a provider
 * whose base URL points at an internal address says the same thing whatever listens there, never shows what
 * answered, never follows a redirect, and a stored key never travels to a new host.
 */

const INTERNAL_PAGE = 'internal-admin-console: db_password=hunter2';
const SECRET_KEY = 'sk-live-outbound-0123456789abcdef';

interface Receiver {
  url: string;
  requests: { path: string; authorization: string | undefined; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A loopback HTTP server that records what it got and answers with `status`, `headers` and `body`. */
async function startReceiver(
  status: number,
  body: string,
  headers: Record<string, string> = {},
): Promise<Receiver> {
  const requests: Receiver['requests'] = [];
  const server: Server = createHttpServer((req, res) => {
    requests.push({ path: req.url ?? '', authorization: req.headers.authorization, headers: req.headers });
    req.resume();
    res.writeHead(status, { 'content-type': 'text/html', ...headers });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port that accepts connections and speaks something other than HTTP. */
async function startNonHttp(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<import('node:net').Socket>();
  const server: TcpServer = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.end('SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function testProvider(server: TestServer, admin: TestUser, baseUrl: string, apiKey?: string) {
  const put = await server.request('PUT', '/api/admin/ai', {
    token: admin.token,
    body: {
      providers: [
        { kind: 'openai-compatible', base_url: baseUrl, model: 'm', ...(apiKey ? { api_key: apiKey } : {}) },
      ],
    },
  });
  expect(put.status).toBe(200);
  const id = put.body.providers[0].id as string;
  const test = await server.request('POST', '/api/admin/ai/test', { token: admin.token, body: { id } });
  expect(test.status).toBe(200);
  const page = await server.request('GET', '/api/admin/ai', { token: admin.token });
  return { test, page, id };
}

describe('the provider Test as a port scanner, with no internal address allowed', () => {
  let server: TestServer;
  let admin: TestUser;
  let openPage: Receiver;
  let nonHttp: Awaited<ReturnType<typeof startNonHttp>>;

  beforeAll(async () => {
    openPage = await startReceiver(200, INTERNAL_PAGE);
    nonHttp = await startNonHttp();
    server = await startTestServer({ env: { AI_LOCAL_SERVERS: 'off' } });
    admin = await createUser(server, { role: 'admin' });
  });
  afterAll(async () => {
    await server?.close();
    await openPage?.close();
    await nonHttp?.close();
  });

  it('an open HTTP port, a closed port and a non-HTTP port on loopback all give the same refusal', async () => {
    const targets = [
      `${openPage.url}/v1`,
      `http://127.0.0.1:${await closedPort()}/v1`,
      `http://127.0.0.1:${nonHttp.port}/v1`,
    ];
    const messages: string[] = [];
    for (const target of targets) {
      const { test, page } = await testProvider(server, admin, target);
      expect(test.body.ok).toBe(false);
      expect(test.text).not.toContain('hunter2');
      expect(page.text).not.toContain('hunter2');
      messages.push(test.body.message as string);
    }
    expect(new Set(messages).size).toBe(1);
    expect(messages[0]).toMatch(/not allowed/);
    // Refused before connecting: the internal page never saw a request.
    expect(openPage.requests).toHaveLength(0);
  });

  it('a host name that resolves to loopback is refused when it is connected to', async () => {
    const { test } = await testProvider(
      server,
      admin,
      `${openPage.url.replace('127.0.0.1', 'localhost')}/v1`,
    );
    expect(test.body).toMatchObject({ ok: false });
    expect(test.body.message).toMatch(/not allowed/);
    expect(openPage.requests).toHaveLength(0);
  });
});

describe('Anthropic requests, made by the AI SDK, pass the same guard', () => {
  let server: TestServer;
  let admin: TestUser;
  let openPage: Receiver;
  let allowed: Receiver;

  beforeAll(async () => {
    openPage = await startReceiver(200, INTERNAL_PAGE);
    allowed = await startReceiver(
      401,
      '{"type":"error","error":{"type":"authentication_error","message":"no"}}',
      {
        'content-type': 'application/json',
      },
    );
    // Only the second receiver's port is opened.
    server = await startTestServer({
      env: { AI_LOCAL_SERVERS: 'off', OUTBOUND_ALLOWED_HOSTS: new URL(allowed.url).host },
    });
    admin = await createUser(server, { role: 'admin' });
  });
  afterAll(async () => {
    await server?.close();
    await openPage?.close();
    await allowed?.close();
  });

  it('an Anthropic provider pointed at a loopback port that is not allowed is refused before connecting', async () => {
    const put = await server.request('PUT', '/api/admin/ai', {
      token: admin.token,
      body: { providers: [{ kind: 'anthropic', base_url: `${openPage.url}/v1`, model: 'claude' }] },
    });
    const id = put.body.providers[0].id as string;
    const test = await server.request('POST', '/api/admin/ai/test', { token: admin.token, body: { id } });
    expect(test.body.ok).toBe(false);
    expect(test.body.message).toMatch(/not allowed/);
    expect(openPage.requests).toHaveLength(0);
  });

  it("an in-app Anthropic provider without a key never sends the environment's ANTHROPIC_API_KEY", async () => {
    const previous = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-operator-secret';
    try {
      const put = await server.request('PUT', '/api/admin/ai', {
        token: admin.token,
        body: { providers: [{ kind: 'anthropic', base_url: `${allowed.url}/v1`, model: 'claude' }] },
      });
      const id = put.body.providers[0].id as string;
      const test = await server.request('POST', '/api/admin/ai/test', { token: admin.token, body: { id } });
      expect(test.body).toMatchObject({ ok: false, message: 'HTTP 401' });
      const calls = allowed.requests.filter((r) => r.path === '/v1/messages');
      expect(calls).toHaveLength(1);
      expect(JSON.stringify(calls[0]!.headers)).not.toContain('sk-ant-operator-secret');
    } finally {
      if (previous === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = previous;
    }
  });
});

describe('with loopback allowed for local models', () => {
  let server: TestServer;
  let admin: TestUser;
  let fake: FakeProvider;
  let openPage: Receiver;
  let failingPage: Receiver;
  let nonHttp: Awaited<ReturnType<typeof startNonHttp>>;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    openPage = await startReceiver(200, INTERNAL_PAGE);
    failingPage = await startReceiver(500, `<h1>${INTERNAL_PAGE}</h1>`);
    nonHttp = await startNonHttp();
    server = await startTestServer({ env: { AI_LOCAL_SERVERS: 'off', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } });
    admin = await createUser(server, { role: 'admin' });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
    await openPage?.close();
    await failingPage?.close();
    await nonHttp?.close();
  });

  it('a closed port and a non-HTTP port read the same; no internal page body reaches the admin', async () => {
    const closed = await testProvider(server, admin, `http://127.0.0.1:${await closedPort()}/v1`);
    const garbage = await testProvider(server, admin, `http://127.0.0.1:${nonHttp.port}/v1`);
    expect(closed.test.body.message).toBe('Could not reach the provider.');
    expect(garbage.test.body.message).toBe(closed.test.body.message);
    expect(closed.page.body.providers[0].last_error).toBe(garbage.page.body.providers[0].last_error);

    for (const page of [openPage, failingPage]) {
      const { test, page: settings } = await testProvider(server, admin, `${page.url}/v1`);
      expect(test.body.ok).toBe(false);
      expect(page.requests.length).toBeGreaterThan(0);
      for (const text of [test.text, settings.text]) {
        expect(text).not.toContain('hunter2');
        expect(text).not.toContain('internal-admin-console');
      }
    }
    const failing = await testProvider(server, admin, `${failingPage.url}/v1`);
    expect(failing.test.body.message).toBe('HTTP 500');
  });

  it('changing only the base URL drops the stored key: the new host gets no Authorization header', async () => {
    const first = await testProvider(server, admin, fake.baseUrl, SECRET_KEY);
    expect(first.test.body.ok).toBe(true);
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);

    const receiver = await startReceiver(401, '{"error":{"message":"who are you?"}}', {
      'content-type': 'application/json',
    });
    try {
      const moved = await server.request('PUT', '/api/admin/ai', {
        token: admin.token,
        body: {
          providers: [
            { id: first.id, kind: 'openai-compatible', base_url: `${receiver.url}/v1`, model: 'm' },
          ],
        },
      });
      expect(moved.body.providers[0]).toMatchObject({ id: first.id, has_key: false });
      const test = await server.request('POST', '/api/admin/ai/test', {
        token: admin.token,
        body: { id: first.id },
      });
      expect(test.body.ok).toBe(false);
      expect(receiver.requests.length).toBeGreaterThan(0);
      for (const request of receiver.requests) {
        expect(request.authorization).toBeUndefined();
        expect(JSON.stringify(request.headers)).not.toContain(SECRET_KEY);
      }
      // The provider's own words stay out of the answer too.
      expect(test.text).not.toContain('who are you');

      // A new key in the same request as the new URL is kept, and sent there.
      const withKey = await server.request('PUT', '/api/admin/ai', {
        token: admin.token,
        body: {
          providers: [
            {
              id: first.id,
              kind: 'openai-compatible',
              base_url: fake.baseUrl,
              model: 'm',
              api_key: 'sk-new-key-for-fake',
            },
          ],
        },
      });
      expect(withKey.body.providers[0].has_key).toBe(true);
      await server.request('POST', '/api/admin/ai/test', { token: admin.token, body: { id: first.id } });
      expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-new-key-for-fake');
    } finally {
      await receiver.close();
    }
  });

  it('a provider that answers 302 to another host is not followed', async () => {
    const elsewhere = await startReceiver(200, INTERNAL_PAGE);
    const redirecting = await startReceiver(302, '', { location: `${elsewhere.url}/v1/chat/completions` });
    try {
      const { test, page } = await testProvider(server, admin, `${redirecting.url}/v1`, SECRET_KEY);
      expect(redirecting.requests.length).toBeGreaterThan(0);
      expect(elsewhere.requests).toHaveLength(0);
      expect(test.body.ok).toBe(false);
      expect(test.body.message).toMatch(/redirect/);
      expect(page.text).not.toContain('hunter2');
    } finally {
      await redirecting.close();
      await elsewhere.close();
    }
  });

  it('link-local and cloud metadata addresses are refused even though loopback is allowed', async () => {
    for (const target of [
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00:ec2::254]/v1',
      'http://100.100.100.200/v1',
      'http://[fe80::1]:11434/v1',
    ]) {
      const started = performance.now();
      const { test } = await testProvider(server, admin, target);
      expect(test.body.ok, target).toBe(false);
      expect(test.body.message, target).toMatch(/not allowed/);
      // Refused from the address alone, without waiting on a connection.
      expect(performance.now() - started).toBeLessThan(5_000);
    }
  });
});
