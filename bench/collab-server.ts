/**
 * Child process for bench/collab.ts: one collaboration server, alone in its process so its RSS and CPU
 * are its own. Prints one line `READY {json}` on stdout when it listens, then runs until killed.
 *
 *   ours — the real app (buildApp: Fastify, /api/collab, authentication, persistence on in-memory PGlite,
 *          or PostgreSQL when BENCH_DATABASE_URL is set) plus one signed-in user whose token it prints.
 *   bare — Hocuspocus's own Server with no extensions: no auth, no persistence.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestServer } from '../src/server/test/server';

// Modules are imported per mode, so the bare server's RSS holds nothing of the app.

const mode = process.argv[2];

if (mode === 'bare') {
  const { Server } = await import('@hocuspocus/server');
  const server = new Server({ port: 0, address: '127.0.0.1', quiet: true, stopOnSignals: false });
  await server.listen();
  console.log(`READY ${JSON.stringify({ port: server.address.port, path: '', token: null })}`);
  process.on('SIGTERM', () => process.exit(0));
} else if (mode === 'ours') {
  const { buildApp } = await import('../src/server/app');
  const { loadConfig } = await import('../src/server/config');
  const { openDatabase } = await import('../src/server/db/client');
  const { createUser } = await import('../src/server/test/factories');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'qw-bench-collab-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    JWT_SECRET: 'bench-secret-that-is-long-enough-for-hs256-signing',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  });
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? dataDir : 'memory://',
  });
  const app = await buildApp({ config, database, logger: { level: 'warn' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  // The factory only needs the database and the JWT secret.
  const user = await createUser({ database, config } as unknown as TestServer);
  console.log(`READY ${JSON.stringify({ port: address.port, path: '/api/collab', token: user.token })}`);
  process.on('SIGTERM', () => {
    void app
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
  });
} else {
  console.error('usage: collab-server.ts ours|bare');
  process.exit(2);
}
