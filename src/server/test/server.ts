import type { FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { WebhookOptions } from '../webhooks';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { openDatabase, type Database } from '../db/client';
import { createTestDatabase } from './database';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface RequestOptions {
  token?: string | undefined;
  body?: unknown;
  /** Sent as-is (malformed JSON, multipart uploads). */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

export interface TestServer {
  app: FastifyInstance;
  url: string;
  config: Config;
  database: Database;
  request<T = any>(method: string, urlPath: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/**
 * A real server on an ephemeral port over a fresh database (in-memory PGlite, or its own PostgreSQL
 * database in the postgres project). Tests talk to it over HTTP exactly as a client would.
 */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    overrides?: Partial<Config>;
    /** Receives every log line (JSON, level debug) instead of silencing the log. */
    logStream?: { write(line: string): void };
    /** Runs after buildApp and before listen (extra routes or hooks a test needs). */
    configure?: (app: FastifyInstance) => void | Promise<void>;
    /** Webhook timings for tests (retry at once, no wait before an update is announced). */
    webhookOptions?: WebhookOptions;
    /**
     * Storage that outlives this server (restart tests): PGlite files in `dataDir`, or the PostgreSQL
     * database `databaseUrl`. The caller creates and removes it; close() leaves it in place.
     */
    storage?: { dataDir: string; databaseUrl?: string | undefined };
  } = {},
): Promise<TestServer> {
  const { storage } = options;
  const handle = storage
    ? { databaseUrl: storage.databaseUrl, drop: async () => {} }
    : await createTestDatabase();
  const dataDir = storage?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'qw-test-'));
  const config = loadConfig(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
      APP_URL: 'http://localhost:3000',
      ...options.env,
      DATA_DIR: dataDir,
      ...(handle.databaseUrl ? { DATABASE_URL: handle.databaseUrl } : {}),
    },
    options.overrides,
  );
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATABASE_URL || storage ? dataDir : 'memory://',
    initialData: storage ? undefined : handle.initialData,
  });
  const app = await buildApp({
    config,
    database,
    logger: options.logStream ? { level: 'debug', stream: options.logStream } : false,
    ...(options.webhookOptions && { webhookOptions: options.webhookOptions }),
  });
  await options.configure?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind a port');
  const url = `http://127.0.0.1:${address.port}`;

  return {
    app,
    url,
    config,
    database,
    async request(method, urlPath, { token, body, rawBody, headers = {} } = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      const h = init.headers as Record<string, string>;
      if (token) h.authorization = `Bearer ${token}`;
      if (rawBody !== undefined) {
        h['content-type'] ??= 'application/json';
        init.body = rawBody;
      } else if (body !== undefined) {
        h['content-type'] ??= 'application/json';
        init.body = JSON.stringify(body);
      }
      const response = await fetch(url + urlPath, init);
      const text = await response.text();
      let parsed: unknown = text;
      if ((response.headers.get('content-type') ?? '').includes('application/json') && text) {
        parsed = JSON.parse(text);
      }
      return { status: response.status, body: parsed as any, headers: response.headers, text };
    },
    async close() {
      await app.close();
      await database.close();
      await handle.drop();
      if (!storage) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
