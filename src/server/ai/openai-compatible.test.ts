import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundPolicy, parseAllowEntry } from '../outbound';
import { OpenAiCompatibleClient, ProviderRequestError, type ChatStreamPart } from './openai-compatible';

/** Edge cases of the Chat Completions client against a scripted server on loopback. */

type Handler = (body: Record<string, unknown>, res: ServerResponse) => void;
let handler: Handler;
let server: Server;
let baseUrl: string;
const received: Record<string, unknown>[] = [];
let connections = 0;

function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => resolve(JSON.parse(raw) as Record<string, unknown>));
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void readJson(req).then((body) => {
      received.push(body);
      handler(body, res);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request = () => ({
  system: 'Be brief.',
  prompt: 'Hello',
  maxOutputTokens: 64,
  signal: new AbortController().signal,
});
/** The scripted server is on loopback, which the outbound guard opens only when told to. */
const policy = outboundPolicy([parseAllowEntry('127.0.0.1')]);
const client = (officialApi = false) =>
  new OpenAiCompatibleClient({ baseUrl, apiKey: 'k', model: 'm', officialApi, policy });
const frame = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

async function collect(parts: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const out: ChatStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

describe('OpenAiCompatibleClient', () => {
  it('asks the official API with max_completion_tokens and streams deltas split across packets', async () => {
    handler = (_body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const all =
        frame({ choices: [{ delta: { content: 'Hel' } }] }) +
        frame({ choices: [{ delta: { content: 'lo' } }] }) +
        frame({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2 } }) +
        frame('[DONE]');
      // Cut in the middle of an event: the parser must join the halves.
      res.write(all.slice(0, 20));
      setTimeout(() => res.end(all.slice(20)), 5);
    };
    const parts = await collect(client(true).stream(request()));
    expect(parts).toEqual([
      { type: 'delta', text: 'Hel' },
      { type: 'delta', text: 'lo' },
      { type: 'finish', usage: { inputTokens: 3, outputTokens: 2 } },
    ]);
    expect(received.at(-1)).toMatchObject({ model: 'm', max_completion_tokens: 64, stream: true });
    expect(received.at(-1)).not.toHaveProperty('max_tokens');
  });

  it('reuses kept-alive connections for answer after answer', async () => {
    handler = (_body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(frame({ choices: [{ delta: { content: 'Hi' } }] }) + frame('[DONE]'));
      // Like real servers, the body ends a moment after [DONE]: stopping to read at [DONE] would
      // destroy the response and its connection.
      setTimeout(() => res.end(), 5);
    };
    const reused = client();
    const before = connections;
    for (let i = 0; i < 6; i++) await collect(reused.stream(request()));
    // The next request may start before the previous connection is back in the pool: two at most.
    expect(connections - before).toBeLessThanOrEqual(2);
  });

  it('turns an error event inside the stream into a non-retryable provider error', async () => {
    handler = (_body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(
        frame({ choices: [{ delta: { content: 'A' } }] }) + frame({ error: { message: 'model crashed' } }),
      );
    };
    const parts: ChatStreamPart[] = [];
    const failure = await (async () => {
      for await (const part of client().stream(request())) parts.push(part);
    })().catch((error: unknown) => error);
    expect(parts).toEqual([{ type: 'delta', text: 'A' }]);
    expect(failure).toBeInstanceOf(ProviderRequestError);
    expect((failure as ProviderRequestError).message).toBe('model crashed');
    expect((failure as ProviderRequestError).retryable).toBe(false);
  });

  it("reports the provider's status and message; 5xx and 429 are retryable, 4xx not", async () => {
    for (const [status, retryable] of [
      [503, true],
      [429, true],
      [400, false],
    ] as const) {
      handler = (_body, res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'nope' } }));
      };
      const failure = (await client()
        .generate(request())
        .catch((error: unknown) => error)) as ProviderRequestError;
      expect(failure).toBeInstanceOf(ProviderRequestError);
      expect(failure.statusCode).toBe(status);
      expect(failure.message).toBe(`HTTP ${status}: nope`);
      expect(failure.retryable).toBe(retryable);
    }
  });

  it('an unreachable server is a retryable failure without a status', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = new OpenAiCompatibleClient({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      apiKey: 'k',
      model: 'm',
      officialApi: false,
      policy,
    });
    const failure = (await unreachable
      .generate(request())
      .catch((error: unknown) => error)) as ProviderRequestError;
    expect(failure).toBeInstanceOf(ProviderRequestError);
    expect(failure.statusCode).toBeUndefined();
    expect(failure.retryable).toBe(true);
  });
});
