import { Worker } from 'node:worker_threads';
import { applyChanges, changesFromLints, type RawLint } from '../../shared/ai/grammar-lints';
import type { GrammarResponse } from '../../shared/schemas/ai';
import { DEFAULT_PREFERENCES, type GrammarDialect } from '../../shared/settings-defaults';
import type { WorkerRequest, WorkerResponse } from './grammar-worker';

/**
 * Offline grammar and spelling with Harper (WebAssembly, no network, no key). Harper runs in one worker
 * thread per process (see grammar-worker.ts), started lazily on the first check: building the linter
 * compiles the binary and the dictionary (~1–2 s). `warmUpGrammar()` lets main.ts pay that at start.
 */
let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, { resolve: (lints: RawLint[]) => void; reject: (e: Error) => void }>();

/**
 * Checks waiting for the worker, one queue per user, served round-robin with one check in the worker at a
 * time: a user who floods the server delays another user's check by at most the check already running.
 */
interface QueuedCheck {
  text: string;
  dialect: GrammarDialect;
  resolve: (lints: RawLint[]) => void;
  reject: (e: Error) => void;
}
const queues = new Map<string, QueuedCheck[]>();
let running = false;

function failAll(error: Error) {
  for (const p of pending.values()) p.reject(error);
  pending.clear();
}

let lastOwner: string | undefined;

function runNext(): void {
  if (running) return;
  // Map iteration order is insertion order and the user served goes to the back of the round. The user
  // served last waits for everyone else even if their queue was (re)created meanwhile.
  let picked: [string, QueuedCheck[]] | undefined;
  for (const entry of queues) {
    picked ??= entry;
    if (entry[0] !== lastOwner) {
      picked = entry;
      break;
    }
  }
  if (!picked) return;
  const [owner, queue] = picked;
  lastOwner = owner;
  const check = queue.shift()!;
  queues.delete(owner);
  if (queue.length > 0) queues.set(owner, queue);
  running = true;
  lintNow(check.text, check.dialect)
    .then(check.resolve, check.reject)
    .finally(() => {
      running = false;
      runNext();
    });
}

/** Queues a check for `owner` (a user id; anonymous callers share one queue). */
function lint(text: string, owner: string, dialect: GrammarDialect): Promise<RawLint[]> {
  return new Promise((resolve, reject) => {
    const queue = queues.get(owner);
    if (queue) queue.push({ text, dialect, resolve, reject });
    else queues.set(owner, [{ text, dialect, resolve, reject }]);
    runNext();
  });
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

function lintNow(text: string, dialect: GrammarDialect): Promise<RawLint[]> {
  const w = getWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.ref();
    w.postMessage({ id, text, dialect } satisfies WorkerRequest);
  });
}

export async function warmUpGrammar(): Promise<void> {
  await lint('Warm up.', '', DEFAULT_PREFERENCES.grammarDialect);
}

/** Stops the worker (tests, shutdown). The next check starts a new one. */
export async function stopGrammar(): Promise<void> {
  const w = worker;
  worker = undefined;
  if (w) await w.terminate();
}

/**
 * Lints the text in the writer's English (British English accepts "colour", American "color") and applies
 * each lint's first suggestion; overlapping lints keep the earlier one.
 */
export async function checkGrammar(
  text: string,
  owner = '',
  dialect: GrammarDialect = DEFAULT_PREFERENCES.grammarDialect,
): Promise<GrammarResponse> {
  const changes = changesFromLints(text, await lint(text, owner, dialect));
  const correctedText = applyChanges(text, changes);
  return { correctedText, changes, corrections: changes, result: { correctedText, corrections: changes } };
}
