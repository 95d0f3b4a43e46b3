import { Worker } from 'node:worker_threads';
import { unprocessable } from '../errors';
import { COMPILE_TIME_BUDGET_MS, COMPILE_WORKER_HEAP_MB, COMPILE_WORKER_IDLE_MS } from './constants';
import type { CompileWorkerResponse } from './compile-worker';
import type { CompileJob } from './render';

/**
 * Books compile in one worker thread (compile-worker.ts), one at a time in arrival order: laying out a
 * 100,000-word PDF takes seconds of CPU that must not stall every other request. The worker has its own heap
 * limit and each book a time budget; a worker over either is ended (the caller gets 422) and the next book
 * starts a fresh one. An idle worker ends after COMPILE_WORKER_IDLE_MS, giving its memory back.
 */

interface Queued {
  job: CompileJob;
  resolve(bytes: Uint8Array): void;
  reject(error: Error): void;
}

let worker: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let running = false;
const queue: Queued[] = [];

function startWorker(): Worker {
  // The build replaces this URL with the compiled worker; from source its TypeScript loads through tsx.
  const url = new URL('./compile-worker.ts', import.meta.url);
  const started = new Worker(url, {
    resourceLimits: { maxOldGenerationSizeMb: COMPILE_WORKER_HEAP_MB },
    ...(url.pathname.endsWith('.ts') ? { execArgv: ['--import', 'tsx'] } : {}),
  });
  started.unref();
  started.once('exit', () => {
    if (worker === started) worker = undefined;
  });
  return started;
}

const tooBig = () =>
  unprocessable('This book took too long or needed too much memory to compile.', 'compile_failed');

function runNext(): void {
  if (running) return;
  const next = queue.shift();
  if (!next) {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      void worker?.terminate();
      worker = undefined;
    }, COMPILE_WORKER_IDLE_MS);
    idleTimer.unref();
    return;
  }
  clearTimeout(idleTimer);
  running = true;
  const current = (worker ??= startWorker());
  const finish = (settle: () => void) => {
    clearTimeout(budget);
    current.off('message', onMessage).off('error', onError).off('exit', onExit);
    running = false;
    settle();
    runNext();
  };
  const end = () => {
    if (worker === current) worker = undefined;
    void current.terminate();
  };
  const budget = setTimeout(() => {
    end();
    finish(() => next.reject(tooBig()));
  }, COMPILE_TIME_BUDGET_MS);
  const onMessage = (message: CompileWorkerResponse) =>
    finish(() => (message.ok ? next.resolve(message.bytes) : next.reject(new Error(message.message))));
  const onError = (error: Error) => {
    end();
    const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
    finish(() => next.reject(outOfMemory ? tooBig() : error));
  };
  const onExit = () => finish(() => next.reject(tooBig()));
  current.on('message', onMessage).on('error', onError).on('exit', onExit);
  current.postMessage(next.job);
}

/** The book's file bytes, rendered in the worker. */
export function compileInWorker(job: CompileJob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    queue.push({ job, resolve, reject });
    runNext();
  });
}
