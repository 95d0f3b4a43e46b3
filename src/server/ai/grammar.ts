import { Worker } from 'node:worker_threads';
import type { GrammarChange, GrammarResponse } from '../../shared/schemas/ai';
import type { RawLint, WorkerRequest, WorkerResponse } from './grammar-worker';

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

/** Harper's spans are JavaScript (UTF-16) string indices, so offsets go to the client unchanged. */
function toChange(text: string, lint: RawLint): GrammarChange | undefined {
  if (!lint.suggestion) return undefined;
  const original = text.slice(lint.start, lint.end);
  // SuggestionKind: 0 Replace, 1 Remove, 2 InsertAfter.
  const { kind, text: suggested } = lint.suggestion;
  const replacement = kind === 1 ? '' : kind === 2 ? original + suggested : suggested;
  if (replacement === original) return undefined;
  return {
    offset: lint.start,
    length: lint.end - lint.start,
    original,
    replacement,
    message: lint.message,
    kind: lint.kind,
  };
}

/** Lints the text and applies each lint's first suggestion; overlapping lints keep the earlier one. */
export async function checkGrammar(text: string): Promise<GrammarResponse> {
  const lints = await lint(text);
  const candidates = lints
    .map((l) => toChange(text, l))
    .filter((c): c is GrammarChange => c !== undefined)
    .sort((a, b) => a.offset - b.offset);
  const changes: GrammarChange[] = [];
  let reachedTo = -1;
  for (const change of candidates) {
    if (change.offset < reachedTo) continue;
    changes.push(change);
    reachedTo = change.offset + change.length;
  }
  let correctedText = text;
  for (const change of [...changes].reverse()) {
    correctedText =
      correctedText.slice(0, change.offset) +
      change.replacement +
      correctedText.slice(change.offset + change.length);
  }
  return { correctedText, changes, corrections: changes, result: { correctedText, corrections: changes } };
}
