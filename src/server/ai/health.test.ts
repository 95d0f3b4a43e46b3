import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../test/fake-anthropic';
import { startFakeOpenAI } from '../test/fake-openai';
import type { FakeProvider } from '../test/fake-provider';
import { startTestServer, type TestServer } from '../test/server';

/**
 * GET /api/ai/health is public: answering it must never make the server call a provider (anyone could
 * otherwise make it send requests, with the operator's key, as often as they like). It reports what the
 * scheduled probe, run once at start, found.
 */
describe('AI health without outbound requests', () => {
  let openai: FakeProvider;
  let anthropic: FakeProvider;
  let server: TestServer;

  beforeAll(async () => {
    openai = await startFakeOpenAI();
    anthropic = await startFakeAnthropic();
    server = await startTestServer({
      env: {
        AI_LOCAL_SERVERS: 'off',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseUrl,
        ANTHROPIC_API_KEY: 'ak-test',
        ANTHROPIC_BASE_URL: anthropic.baseUrl,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
    await anthropic?.close();
  });

  it('the start-up probe reaches each provider once; anonymous health calls add no request', async () => {
    // The probe runs in the background from start; it is one model listing per provider.
    await expect
      .poll(() => [openai.requests.length, anthropic.requests.length], { timeout: 5_000 })
      .toEqual([1, 1]);
    expect(openai.requests[0]!.path).toBe('/v1/models');

    for (let i = 0; i < 5; i++) {
      const res = await server.request('GET', '/api/ai/health');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ openai: true, anthropic: true });
    }
    expect([openai.requests.length, anthropic.requests.length]).toEqual([1, 1]);
  });

  it('a provider that went down shows as unreachable only after the next probe, not because someone asked', async () => {
    await openai.close();
    const res = await server.request('GET', '/api/ai/health');
    expect(res.body.openai).toBe(true);
    expect(anthropic.requests).toHaveLength(1);
  });
});
