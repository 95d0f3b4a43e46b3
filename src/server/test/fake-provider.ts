import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Shared plumbing of the fake AI providers (fake-openai.ts, fake-anthropic.ts): a loopback HTTP server that
 * records every request, answers with a scripted token schedule, can fail the next N calls with a status,
 * and notices when a client closes a connection before the answer ended (cancellation tests).
 */

export interface TokenSchedule {
  /** The answer, as the chunks it is streamed in. */
  tokens: string[];
  /** Delay before the first chunk (ms). */
  firstTokenDelayMs: number;
  /** Delay between chunks (ms). */
  tokenDelayMs: number;
  inputTokens: number;
  outputTokens: number;
}

interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** True once the client closed the connection before the answer was complete. */
  closedEarly: boolean;
  /** Chunks written before the close. */
  chunksSent: number;
}

export interface FakeProvider {
  /** Base URL including /v1, as OPENAI_BASE_URL / ANTHROPIC_BASE_URL expect. */
  baseUrl: string;
  requests: RecordedRequest[];
  schedule: TokenSchedule;
  /** Listed by GET …/models (model discovery, reachability probes). */
  models: string[];
  /** Answer the next `times` requests with this HTTP status and an error body. */
  failNext(status: number, times?: number): void;
  /** Chooses the answer from the request body (defaults to `schedule.tokens`). */
  answerWith(fn: ((body: any) => string[]) | undefined): void;
  /** Resolves when a request's connection closes before its answer ended. */
  waitForEarlyClose(timeoutMs?: number): Promise<RecordedRequest>;
  /** Open connections (stream still being written). */
  activeStreams(): number;
  close(): Promise<void>;
}

export interface WireFormat {
  path: string;
  isStreaming(body: any): boolean;
  errorBody(status: number): unknown;
  /** Non-streaming answer body. */
  complete(body: any, text: string, schedule: TokenSchedule): unknown;
  /** SSE frames before, for each chunk, and after. */
  streamStart(body: any, schedule: TokenSchedule): string[];
  streamChunk(body: any, token: string): string;
  streamEnd(body: any, schedule: TokenSchedule): string[];
}

const sleep = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

const DEFAULT_SCHEDULE: TokenSchedule = {
  tokens: ['The ', 'improved ', 'text.'],
  firstTokenDelayMs: 0,
  tokenDelayMs: 0,
  inputTokens: 42,
  outputTokens: 7,
};

export async function startFakeProvider(
  format: WireFormat,
  schedule: Partial<TokenSchedule> = {},
): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  const current: TokenSchedule = { ...DEFAULT_SCHEDULE, ...schedule };
  let failures: { status: number; times: number } | undefined;
  let answer: ((body: any) => string[]) | undefined;
  let earlyCloseWaiters: ((r: RecordedRequest) => void)[] = [];
  let active = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      closedEarly: false,
      chunksSent: 0,
    };
    requests.push(record);
    if (req.method === 'GET' && req.url?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', data: provider.models.map((id) => ({ id })) }));
    }
    if (req.method !== 'POST' || !req.url?.endsWith(format.path)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { message: 'not found' } }));
    }
    if (failures && failures.times > 0) {
      failures.times -= 1;
      res.writeHead(failures.status, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(format.errorBody(failures.status)));
    }
    const tokens = answer ? answer(body) : current.tokens;
    active += 1;
    res.on('close', () => {
      active -= 1;
      if (!res.writableFinished) {
        record.closedEarly = true;
        const waiters = earlyCloseWaiters;
        earlyCloseWaiters = [];
        for (const w of waiters) w(record);
      }
    });
    if (!format.isStreaming(body)) {
      await sleep(current.firstTokenDelayMs);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(format.complete(body, tokens.join(''), current)));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const frame of format.streamStart(body, current)) res.write(frame);
    await sleep(current.firstTokenDelayMs);
    for (const [i, token] of tokens.entries()) {
      if (res.destroyed) return;
      if (i > 0) await sleep(current.tokenDelayMs);
      if (res.destroyed) return;
      res.write(format.streamChunk(body, token));
      record.chunksSent += 1;
    }
    for (const frame of format.streamEnd(body, current)) res.write(frame);
    res.end();
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const provider: FakeProvider = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    schedule: current,
    models: ['fake-model'],
    failNext(status, times = 1) {
      failures = { status, times };
    },
    answerWith(fn) {
      answer = fn;
    },
    waitForEarlyClose(timeoutMs = 5_000) {
      const already = requests.find((r) => r.closedEarly);
      if (already) return Promise.resolve(already);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no early close within timeout')), timeoutMs);
        earlyCloseWaiters.push((r) => {
          clearTimeout(timer);
          resolve(r);
        });
      });
    },
    activeStreams: () => active,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return provider;
}

export const sseFrame = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
