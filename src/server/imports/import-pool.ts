import { Worker } from 'node:worker_threads';
import { AppError, unprocessable } from '../errors';
import {
  IMPORT_TIME_BUDGET_MS,
  IMPORT_WORKER_HEAP_MB,
  IMPORT_WORKER_IDLE_MS,
  IMPORT_WORKER_SLOTS,
} from './import-limits';
import type { ImportedContent, ImportFormat } from './import-service';

/**
 * Import conversion off the event loop, in IMPORT_WORKER_SLOTS worker threads (import-worker.ts), each with
 * a heap limit (IMPORT_WORKER_HEAP_MB) and a time budget per file (IMPORT_TIME_BUDGET_MS, counted from when
 * the file's turn comes, not while it waits). A worker that runs out of either is ended and answers 422;
 * its slot starts a fresh worker for the next file. Each writer holds at most one slot at a time, so one
 * writer's slow or hostile files make only that writer wait.
 */

export interface ImportRequest {
  format: ImportFormat;
  fileName: string;
  bytes: Uint8Array;
  whole: boolean;
  /** Read a Word file's pictures (returned beside the content) instead of leaving their alt text. */
  pictures: boolean;
}

export type ImportResponse =
  | { ok: true; result: ImportedContent }
  | { ok: false; status: number; code: string; message: string }
  /** Anything but an AppError: a bug, answered as one (500). */
  | { ok: false; message: string };

interface Job {
  owner: string;
  request: ImportRequest;
  resolve(result: ImportedContent): void;
  reject(error: Error): void;
}

interface PoolWorker {
  worker: Worker;
  ready: Promise<void>;
}

interface Slot {
  worker: PoolWorker | undefined;
  /** The writer whose file this slot is converting. */
  owner: string | undefined;
  idleTimer: NodeJS.Timeout | undefined;
  /** A worker of this slot being ended: its heap is still held until it has exited. */
  retiring: Promise<unknown> | undefined;
}

const slots: Slot[] = Array.from({ length: IMPORT_WORKER_SLOTS }, () => ({
  worker: undefined,
  owner: undefined,
  idleTimer: undefined,
  retiring: undefined,
}));
const waiting: Job[] = [];

const tookTooLong = () =>
  unprocessable(
    'The file took too long to read; it may be malformed or too large to import.',
    'import_failed',
  );
const neededTooMuchMemory = () =>
  unprocessable('The file needs more memory to read than an import may use.', 'import_failed');

/** A worker's first message: its converters are loaded, so the time budget measures only the file. */
export const IMPORT_WORKER_READY = 'ready';

function startWorker(slot: Slot): PoolWorker {
  // The build replaces this URL with the compiled worker; from source its TypeScript loads through tsx.
  const url = new URL('./import-worker.ts', import.meta.url);
  const worker = new Worker(url, {
    resourceLimits: { maxOldGenerationSizeMb: IMPORT_WORKER_HEAP_MB, maxYoungGenerationSizeMb: 16 },
    ...(url.pathname.endsWith('.ts') ? { execArgv: ['--import', 'tsx'] } : {}),
  });
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (message !== IMPORT_WORKER_READY) return;
      worker.off('message', onMessage).off('error', reject).off('exit', onExit);
      resolve();
    };
    const onExit = () => reject(new Error('import worker exited while starting'));
    worker.on('message', onMessage).on('error', reject).on('exit', onExit);
  });
  // A failed start is reported to the file waiting for it (run below), not as an unhandled rejection.
  ready.catch(() => {});
  // A worker that ends while idle is replaced on the next file rather than sent it.
  worker.once('exit', () => {
    if (slot.worker?.worker === worker) slot.worker = undefined;
  });
  return { worker, ready };
}

function discardWorker(slot: Slot, worker: Worker): void {
  if (slot.worker?.worker === worker) slot.worker = undefined;
  const ended = worker.terminate().catch(() => {});
  slot.retiring = ended;
  void ended.then(() => {
    if (slot.retiring === ended) slot.retiring = undefined;
  });
}

function dispatch(): void {
  for (const slot of slots) {
    if (slot.owner !== undefined) continue;
    const busy = new Set(slots.map((s) => s.owner));
    const next = waiting.findIndex((job) => !busy.has(job.owner));
    if (next < 0) return;
    void run(slot, waiting.splice(next, 1)[0]!);
  }
}

async function run(slot: Slot, job: Job): Promise<void> {
  clearTimeout(slot.idleTimer);
  slot.owner = job.owner;
  // A slot's next worker starts only once the one it replaces has exited, so the slots bound how many heaps
  // are alive at once (a hostile file's worker, ended at its limit, otherwise overlaps its successor).
  if (slot.retiring) await slot.retiring;
  const { worker, ready } = (slot.worker ??= startWorker(slot));
  worker.ref();
  let settled = false;
  const settle = (outcome: { error: Error; keepWorker: boolean } | { result: ImportedContent }) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    slot.owner = undefined;
    if ('result' in outcome || outcome.keepWorker) {
      worker.unref();
      slot.idleTimer = setTimeout(() => discardWorker(slot, worker), IMPORT_WORKER_IDLE_MS).unref();
    } else {
      discardWorker(slot, worker);
    }
    if ('result' in outcome) job.resolve(outcome.result);
    else job.reject(outcome.error);
    dispatch();
  };
  const onMessage = (response: ImportResponse) => {
    if (response.ok) settle({ result: response.result });
    else if ('status' in response) {
      settle({ error: new AppError(response.status, response.code, response.message), keepWorker: true });
    } else settle({ error: new Error(`import worker: ${response.message}`), keepWorker: true });
  };
  const onError = (error: Error & { code?: string }) =>
    settle({
      error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? neededTooMuchMemory() : error,
      keepWorker: false,
    });
  const onExit = () =>
    settle({ error: unprocessable('The file could not be read.', 'import_failed'), keepWorker: false });
  let timer: NodeJS.Timeout | undefined = undefined;
  try {
    await ready;
  } catch (error) {
    settle({ error: error instanceof Error ? error : new Error(String(error)), keepWorker: false });
    return;
  }
  worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  timer = setTimeout(() => settle({ error: tookTooLong(), keepWorker: false }), IMPORT_TIME_BUDGET_MS);
  // A copy the worker owns: the upload's buffer may share memory with others.
  const bytes = new Uint8Array(job.request.bytes);
  worker.postMessage({ ...job.request, bytes } satisfies ImportRequest, [bytes.buffer]);
}

/** Converts one file in an import worker, after `owner`'s earlier files and while a slot is free. */
export function convertInWorker(owner: string, request: ImportRequest): Promise<ImportedContent> {
  return new Promise((resolve, reject) => {
    waiting.push({ owner, request, resolve, reject });
    dispatch();
  });
}
