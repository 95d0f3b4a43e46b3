import { Worker } from 'node:worker_threads';
import { applyChanges, changesFromLints, type RawLint } from '../../shared/ai/grammar-lints';
import type { GrammarResponse } from '../../shared/schemas/ai';
import type { WorkerRequest, WorkerResponse } from './grammar-worker';

/**
 * Offline grammar and spelling with Harper (WebAssembly, no network, no key). Harper runs in one worker
 * thread per process (see grammar-worker.ts), started lazily on the first check: building the linter
 * compiles the binary and the dictionary (~1–2 s). `warmUpGrammar()` lets main.ts pay that at start.
 */
let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, { resolve: (lints: RawLint[]) => void; reject: (e: Error) => void }>();

function failAll(error: Error) {
  for (const p of pending.values()) p.reject(error);
  pending.clear();
}

function getWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./grammar-worker.ts', import.meta.url));
  w.on('message', (message: WorkerResponse) => {
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if ('error' in message) waiter.reject(new Error(message.error));
    else waiter.resolve(message.lints);
    if (pending.size === 0) w.unref();
  });
  w.on('error', (error) => {
    worker = undefined;
    failAll(error);
  });
  w.on('exit', () => {
    if (worker === w) worker = undefined;
    failAll(new Error('grammar worker exited'));
  });
  w.unref();
  worker = w;
  return w;
}

function lint(text: string): Promise<RawLint[]> {
  const w = getWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.ref();
    w.postMessage({ id, text } satisfies WorkerRequest);
  });
}

export async function warmUpGrammar(): Promise<void> {
  await lint('Warm up.');
}

/** Stops the worker (tests, shutdown). The next check starts a new one. */
export async function stopGrammar(): Promise<void> {
  const w = worker;
  worker = undefined;
  if (w) await w.terminate();
}

/** Lints the text and applies each lint's first suggestion; overlapping lints keep the earlier one. */
export async function checkGrammar(text: string): Promise<GrammarResponse> {
  const changes = changesFromLints(text, await lint(text));
  const correctedText = applyChanges(text, changes);
  return { correctedText, changes, corrections: changes, result: { correctedText, corrections: changes } };
}
