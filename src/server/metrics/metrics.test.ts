import fastifyStatic from '@fastify/static';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectCollabClient } from '../collab/testing';
import { ConfigError, loadConfig } from '../config';
import { testDatabaseKind } from '../test/database';
import { startFakeOpenAI } from '../test/fake-openai';
import type { FakeProvider } from '../test/fake-provider';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

const TOKEN = 'metrics-token-for-the-tests-0123456789';

/** One sample's value from Prometheus text, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

describe('GET /metrics without METRICS_TOKEN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(() => server?.close());

  it('does not exist: it answers as any unknown path does', async () => {
    const metrics = await server.request('GET', '/metrics', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const unknown = await server.request('GET', '/no-such-page');
    // The web app's 404 page when the client is built (as in CI), else the JSON 404.
    expect(metrics.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(metrics.headers.get('content-type')).toBe(unknown.headers.get('content-type'));
    expect(metrics.text).not.toContain('quillwright_');
    expect(server.app.routeList.some((route) => route.url === '/metrics')).toBe(false);
  });
});

describe('METRICS_TOKEN', () => {
  it('is refused when shorter than 16 characters, naming the variable', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short', JWT_SECRET: 'x'.repeat(32) })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'short', JWT_SECRET: 'x'.repeat(32) })).toThrow(
      /METRICS_TOKEN: must be at least 16 characters/,
    );
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  let openai: FakeProvider;
  let user: TestUser;
  let staticDir: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    staticDir = mkdtempSync(path.join(tmpdir(), 'qw-metrics-static-'));
    writeFileSync(path.join(staticDir, 'built-file.txt'), 'hello');
    server = await startTestServer({
      env: {
        METRICS_TOKEN: TOKEN,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseUrl,
        OPENAI_MODEL: 'fake-gpt',
      },
      logStream: { write: (line) => void logLines.push(line) },
      // Files served the way buildApp serves the web app's build (dist/client, which a test run may or may not
      // have): a second @fastify/static beside it must not decorate the reply again.
      configure: async (app) => {
        await app.register(fastifyStatic, {
          root: staticDir,
          wildcard: false,
          index: false,
          decorateReply: false,
        });
      },
    });
    user = await createUser(server);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await openai?.close();
    if (staticDir) rmSync(staticDir, { recursive: true, force: true });
  });

  async function scrape(): Promise<string> {
    const res = await server.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text;
  }

  async function createDocument(): Promise<string> {
    const res = await server.request('POST', '/api/documents', {
      token: user.token,
      body: { title: 'Counted' },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  it('answers 401 { message, code } without the token or with another one', async () => {
    for (const authorization of [
      undefined,
      'Bearer ',
      `Bearer ${TOKEN.slice(0, -1)}x`,
      `Bearer ${TOKEN}-and-more`,
      `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`,
      TOKEN,
    ]) {
      const res = await server.request('GET', '/metrics', {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.status, String(authorization)).toBe(401);
      expect(res.body).toEqual({
        message: expect.stringContaining('METRICS_TOKEN'),
        code: 'metrics_token_invalid',
      });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(res.text).not.toContain('quillwright_');
    }
  });

  it("answers in Prometheus's text format with every series named", async () => {
    const res = await server.request('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(server.app.deps.metrics.registry.contentType);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const [name, type] of [
      ['quillwright_http_requests_total', 'counter'],
      ['quillwright_http_request_duration_seconds', 'histogram'],
      ['quillwright_collab_sockets', 'gauge'],
      ['quillwright_live_documents', 'gauge'],
      ['quillwright_store_batch_documents', 'histogram'],
      ['quillwright_store_batch_duration_seconds', 'histogram'],
      ['quillwright_store_batch_failures_total', 'counter'],
      ['quillwright_db_pool_connections', 'gauge'],
      ['quillwright_redis_connected', 'gauge'],
      ['quillwright_ai_calls_total', 'counter'],
      ['quillwright_ai_tokens_total', 'counter'],
      ['quillwright_import_duration_seconds', 'histogram'],
      ['quillwright_export_duration_seconds', 'histogram'],
      ['quillwright_document_events_total', 'counter'],
      // prom-client's default metrics
      ['process_cpu_seconds_total', 'counter'],
      ['process_resident_memory_bytes', 'gauge'],
      ['nodejs_eventloop_lag_p99_seconds', 'gauge'],
      ['nodejs_heap_size_used_bytes', 'gauge'],
      ['nodejs_gc_duration_seconds', 'histogram'],
    ]) {
      expect(res.text, name).toContain(`\n# TYPE ${name} ${type}\n`);
    }
    // No Redis configured: the gauge has no connection to report.
    expect(sample(res.text, 'quillwright_redis_connected')).toBeUndefined();
  });

  it('reports the PostgreSQL pool, and nothing for the embedded database', async () => {
    const text = await scrape();
    if (testDatabaseKind() === 'postgres') {
      expect(sample(text, 'quillwright_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'quillwright_db_pool_connections', { state: 'waiting' })).toBe(0);
    } else {
      expect(sample(text, 'quillwright_db_pool_connections')).toBeUndefined();
    }
  });

  it('counts and times REST requests by route pattern, never by the URL asked for', async () => {
    const id = await createDocument();
    const route = { method: 'GET', route: '/api/documents/:id', status: '200' };
    const before = await scrape();
    const countBefore = sample(before, 'quillwright_http_requests_total', route) ?? 0;
    const timedBefore =
      sample(before, 'quillwright_http_request_duration_seconds_count', {
        method: 'GET',
        route: route.route,
      }) ?? 0;
    for (let i = 0; i < 3; i++) {
      expect((await server.request('GET', `/api/documents/${id}`, { token: user.token })).status).toBe(200);
    }
    // Another user's document answers 404 on the same route.
    const stranger = await createUser(server);
    expect((await server.request('GET', `/api/documents/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await server.request('GET', '/api/no-such-route/abc')).status).toBe(404);
    expect((await server.request('HEAD', `/api/documents/${id}`, { token: user.token })).status).toBe(200);

    const after = await scrape();
    expect(sample(after, 'quillwright_http_requests_total', route)).toBe(countBefore + 3);
    expect(
      sample(after, 'quillwright_http_request_duration_seconds_count', { method: 'GET', route: route.route }),
    ).toBe(timedBefore + 4);
    expect(sample(after, 'quillwright_http_requests_total', { ...route, status: '404' })).toBe(1);
    expect(sample(after, 'quillwright_http_requests_total', { method: 'HEAD', route: route.route })).toBe(1);
    expect(
      sample(after, 'quillwright_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(after, 'quillwright_http_requests_total', {
        method: 'POST',
        route: '/api/documents',
        status: '201',
      }),
    ).toBeGreaterThanOrEqual(1);
    // The scrape before this one is counted too.
    expect(
      sample(after, 'quillwright_http_requests_total', { method: 'GET', route: '/metrics', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain(id);
    expect(after).not.toContain('no-such-route');
  });

  it("labels the web app's files as one route", async () => {
    const res = await fetch(`${server.url}/built-file.txt`);
    expect(res.status).toBe(200);
    const text = await scrape();
    expect(
      sample(text, 'quillwright_http_requests_total', { method: 'GET', route: 'static', status: '200' }),
    ).toBe(1);
    expect(text).not.toContain('built-file');
  });

  it('is not limited per address for a scraper, and scrapes are not logged at info', async () => {
    for (let i = 0; i < 40; i++) await scrape();
    const scrapeLines = logLines.filter((line) => line.includes('"/metrics"'));
    expect(scrapeLines).toEqual([]);
    // Other requests are logged as usual, so the filter above would have seen scrapes.
    expect(logLines.some((line) => line.includes('"url":"/api/documents'))).toBe(true);
  });

  it('counts document events by type', async () => {
    const before = sample(await scrape(), 'quillwright_document_events_total', { type: 'created' }) ?? 0;
    await createDocument();
    await createDocument();
    expect(sample(await scrape(), 'quillwright_document_events_total', { type: 'created' })).toBe(before + 2);
  });

  it('follows collaboration sockets, live documents and the store batches that write them', async () => {
    const documentId = await createDocument();
    const before = await scrape();
    expect(sample(before, 'quillwright_collab_sockets')).toBe(0);
    expect(sample(before, 'quillwright_live_documents')).toBe(0);
    const storesBefore = sample(before, 'quillwright_store_batch_duration_seconds_count') ?? 0;
    const documentsBefore = sample(before, 'quillwright_store_batch_documents_sum') ?? 0;

    const client = await connectCollabClient({ serverUrl: server.url, documentId, token: user.token });
    try {
      const open = await scrape();
      expect(sample(open, 'quillwright_collab_sockets')).toBe(1);
      expect(sample(open, 'quillwright_live_documents')).toBe(1);
      client.appendParagraph('Stored through the batch.');
      await expect
        .poll(async () => sample(await scrape(), 'quillwright_store_batch_duration_seconds_count') ?? 0, {
          timeout: 10_000,
        })
        .toBeGreaterThan(storesBefore);
      const stored = await scrape();
      expect(sample(stored, 'quillwright_store_batch_documents_sum')).toBeGreaterThan(documentsBefore);
      expect(sample(stored, 'quillwright_store_batch_failures_total')).toBe(0);
    } finally {
      client.destroy();
    }
    await expect
      .poll(async () => sample(await scrape(), 'quillwright_collab_sockets'), { timeout: 10_000 })
      .toBe(0);
    await expect
      .poll(async () => sample(await scrape(), 'quillwright_live_documents'), { timeout: 10_000 })
      .toBe(0);
    // The socket's upgrade is not an HTTP request of these series (sockets have their own gauge).
    expect(await scrape()).not.toContain('route="/api/collab"');
  });

  it('counts AI calls by provider and outcome, and the tokens metered', async () => {
    const before = await scrape();
    const ok = sample(before, 'quillwright_ai_calls_total', { provider: 'openai', outcome: 'ok' }) ?? 0;
    const failed =
      sample(before, 'quillwright_ai_calls_total', { provider: 'openai', outcome: 'error' }) ?? 0;
    const input = sample(before, 'quillwright_ai_tokens_total', { provider: 'openai', kind: 'input' }) ?? 0;
    const output = sample(before, 'quillwright_ai_tokens_total', { provider: 'openai', kind: 'output' }) ?? 0;

    const answered = await server.request('POST', '/api/ai/improve', {
      token: user.token,
      body: { text: 'Our team have finished the report.' },
    });
    expect(answered.status).toBe(200);
    const { inputTokens, outputTokens } = answered.body.usage as {
      inputTokens: number;
      outputTokens: number;
    };
    expect(inputTokens).toBeGreaterThan(0);
    openai.failNext(500);
    const refused = await server.request('POST', '/api/ai/improve', {
      token: user.token,
      body: { text: 'Our team have finished the report.' },
    });
    expect(refused.status).toBe(502);

    const after = await scrape();
    expect(sample(after, 'quillwright_ai_calls_total', { provider: 'openai', outcome: 'ok' })).toBe(ok + 1);
    expect(sample(after, 'quillwright_ai_calls_total', { provider: 'openai', outcome: 'error' })).toBe(
      failed + 1,
    );
    expect(sample(after, 'quillwright_ai_tokens_total', { provider: 'openai', kind: 'input' })).toBe(
      input + inputTokens,
    );
    expect(sample(after, 'quillwright_ai_tokens_total', { provider: 'openai', kind: 'output' })).toBe(
      output + outputTokens,
    );
  });

  it('counts a streamed answer the writer stops reading as cancelled, a complete one as ok', async () => {
    const calls = async (outcome: string) =>
      sample(await scrape(), 'quillwright_ai_calls_total', { provider: 'openai', outcome }) ?? 0;
    const streamImprove = (signal?: AbortSignal) =>
      fetch(server.url + '/api/ai/improve', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${user.token}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
        },
        body: JSON.stringify({ text: 'Our team have finished the report.' }),
        signal,
      });
    const [okBefore, cancelledBefore] = [await calls('ok'), await calls('cancelled')];

    expect(await (await streamImprove()).text()).toContain('"delta"');
    expect(await calls('ok')).toBe(okBefore + 1);

    openai.answerWith(() => Array.from({ length: 50 }, (_, i) => `t${i} `));
    openai.schedule.tokenDelayMs = 50;
    try {
      const controller = new AbortController();
      const response = await streamImprove(controller.signal);
      await response.body!.getReader().read();
      controller.abort();
      await openai.waitForEarlyClose();
      await expect.poll(() => calls('cancelled'), { timeout: 5_000 }).toBe(cancelledBefore + 1);
      expect(await calls('ok')).toBe(okBefore + 1);
    } finally {
      openai.answerWith(undefined);
      openai.schedule.tokenDelayMs = 0;
    }
  });

  it('times imports and exports by format', async () => {
    const before = await scrape();
    const imports =
      sample(before, 'quillwright_import_duration_seconds_count', { format: 'markdown', outcome: 'ok' }) ?? 0;
    const exports = sample(before, 'quillwright_export_duration_seconds_count', { format: 'md' }) ?? 0;

    const form = new FormData();
    form.append('file', new Blob(['# Imported\n\nCounted once.']), 'counted.md');
    const imported = await fetch(`${server.url}/api/documents/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
      body: form,
    });
    expect(imported.status).toBe(201);
    const { id } = (await imported.json()) as { id: string };
    const exported = await server.request('GET', `/api/documents/${id}/export?format=md`, {
      token: user.token,
    });
    expect(exported.status).toBe(200);

    const after = await scrape();
    expect(
      sample(after, 'quillwright_import_duration_seconds_count', { format: 'markdown', outcome: 'ok' }),
    ).toBe(imports + 1);
    expect(sample(after, 'quillwright_export_duration_seconds_count', { format: 'md' })).toBe(exports + 1);
  });
});

/** Same rule as the collaboration's Redis tests: with TEST_REDIS_URL on the PostgreSQL project, never skipped. */
const redisUrl = process.env.TEST_REDIS_URL;

describe('Redis connections in /metrics', () => {
  async function redisGauges(env: Record<string, string>): Promise<Record<string, number | undefined>> {
    const server = await startTestServer({ env: { METRICS_TOKEN: TOKEN, ...env } });
    try {
      const read = async () => {
        const res = await server.request('GET', '/metrics', {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        return Object.fromEntries(
          ['rate_limit', 'collab_pub', 'collab_sub'].map((client) => [
            client,
            sample(res.text, 'quillwright_redis_connected', { client }),
          ]),
        );
      };
      // ioredis connects in the background; a reachable Redis is ready within moments.
      if (env.REDIS_URL === redisUrl) {
        await expect
          .poll(async () => Object.values(await read()).every((value) => value === 1), { timeout: 10_000 })
          .toBe(true);
      }
      return await read();
    } finally {
      await server.close();
    }
  }

  it('reports each connection as down (0) while Redis cannot be reached', async () => {
    // Nothing listens on port 1.
    expect(await redisGauges({ REDIS_URL: 'redis://127.0.0.1:1' })).toEqual({
      rate_limit: 0,
      collab_pub: 0,
      collab_sub: 0,
    });
  }, 60_000);

  it.skipIf(!redisUrl || testDatabaseKind() !== 'postgres')(
    'reports each connection as ready (1)',
    async () => {
      const prefix = `qw-test-metrics-${process.pid}`;
      expect(await redisGauges({ REDIS_URL: redisUrl!, REDIS_PREFIX: prefix })).toEqual({
        rate_limit: 1,
        collab_pub: 1,
        collab_sub: 1,
      });
    },
    60_000,
  );
});
