import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, loadConfig } from './config';
import { buildApp } from './app';
import { DataDirLockedError } from './db/data-dir-lock';
import { openDatabase, type Database } from './db/client';
import { chooseLogFormat, createLogger } from './runtime/logger';
import { startupSummary } from './runtime/startup-summary';
import { printedSetupCode } from './accounts';
import { startShutdownDeadline, type ShutdownDeadline } from './runtime/shutdown-deadline';

async function main(): Promise<void> {
  const config = loadConfig();
  const logFormat = chooseLogFormat(config.LOG_FORMAT, process.stdout.isTTY);
  const log = createLogger(config.LOG_LEVEL, logFormat);

  // Filled in as start-up gets there; a signal may arrive at any point.
  const running: { database?: Database; app?: FastifyInstance } = {};
  let stopSignal: NodeJS.Signals | undefined;
  const openConnections = new Set<Socket>();

  // Stops in order: health says "draining", requests in flight finish, live documents are flushed (Fastify's
  // onClose hooks), the database closes and releases the data-directory lock. A second signal changes nothing.
  // What stopping is waiting for, reported if it misses its deadline (runtime/shutdown-deadline.ts).
  let step = 'starting up';
  const pending = () => {
    const { app } = running;
    const report = [step];
    if (app) {
      report.push(`${openConnections.size} HTTP connection(s) open`);
      const live = app.hocuspocus?.getDocumentsCount() ?? 0;
      if (live > 0) report.push(`${live} live document(s) not yet stored and unloaded`);
    }
    return report;
  };
  let deadline: ShutdownDeadline | undefined;
  const enter = (next: string) => {
    step = next;
    deadline?.update();
  };
  const stop = async (signal: NodeJS.Signals) => {
    if (stopSignal) return;
    stopSignal = signal;
    deadline ??= startShutdownDeadline({
      timeoutMs: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
      log,
      json: logFormat === 'json',
      pending,
    });
    // Still starting: the start-up path sees stopSignal and calls stop again once there is something to close.
    const { app, database } = running;
    if (!app) return;
    try {
      app.lifecycle.draining = true;
      if (config.SHUTDOWN_DRAIN_SECONDS > 0) {
        enter('draining: answering health checks with 503');
        log.info(`${signal}: answering health checks with 503 for ${config.SHUTDOWN_DRAIN_SECONDS} s`);
        await sleep(config.SHUTDOWN_DRAIN_SECONDS * 1000);
      }
      enter('closing the app: finishing HTTP requests, storing live documents');
      log.info(`${signal}: stopping (finishing requests, saving live documents)`);
      await app.close();
      enter('closing the database');
      await database?.close();
      log.info('Stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'Error while stopping');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  running.database = database;
  const app = await buildApp({ config, database, loggerInstance: log });
  running.app = app;
  if (stopSignal) {
    const signal = stopSignal;
    stopSignal = undefined;
    return stop(signal);
  }

  app.server.on('connection', (socket: Socket) => {
    openConnections.add(socket);
    socket.once('close', () => openConnections.delete(socket));
  });
  const listening = await app.listen({ port: config.PORT, host: config.HOST });
  const summary = startupSummary(config, listening, printedSetupCode(database.db));
  if (logFormat === 'pretty') log.info(summary.message);
  else log.info(summary.fields, summary.message.split('\n')[0]);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
