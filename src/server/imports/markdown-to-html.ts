import { Worker } from 'node:worker_threads';
import { IMPORT_MARKDOWN_TIMEOUT_MS, ImportTooComplexError } from './import-limits';
import type { MarkdownRequest, MarkdownResponse } from './markdown-worker';

/**
 * Markdown → HTML for the import pipeline, in one worker thread per process (markdown-worker.ts), started
 * on first use. Requests are answered in order; one that takes longer than IMPORT_MARKDOWN_TIMEOUT_MS
 * ends the worker (and fails what was waiting on it), and the next request starts a fresh one.
 */

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<
  number,
  { worker: Worker; resolve(html: string): void; reject(error: Error): void }
>();

/** Fails what was waiting on `w` (a worker that died or was stopped), not what a newer worker holds. */
function failAll(w: Worker, error: Error) {
  for (const [id, waiter] of pending) {
    if (waiter.worker !== w) continue;
    pending.delete(id);
    waiter.reject(error);
  }
}

function getWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./markdown-worker.ts', import.meta.url));
  w.unref();
  w.on('message', (message: MarkdownResponse) => {
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if ('html' in message) waiter.resolve(message.html);
    else waiter.reject(new ImportTooComplexError('The Markdown could not be read.'));
  });
  w.on('error', (error) => {
    if (worker === w) worker = undefined;
    failAll(w, error instanceof Error ? error : new Error(String(error)));
  });
  w.on('exit', () => {
    if (worker === w) worker = undefined;
    failAll(w, new ImportTooComplexError('The Markdown took too long to read.'));
  });
  worker = w;
  return w;
}

export function markdownToHtml(source: string): Promise<string> {
  const w = getWorker();
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new ImportTooComplexError('The Markdown took too long to read; it may be malformed.'));
      if (worker === w) worker = undefined;
      void w.terminate();
    }, IMPORT_MARKDOWN_TIMEOUT_MS);
    pending.set(id, {
      worker: w,
      resolve: (html) => {
        clearTimeout(timer);
        resolve(html);
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    });
    w.postMessage({ id, source } satisfies MarkdownRequest);
  });
}

/** Stops the worker (tests, shutdown). */
export async function stopMarkdownWorker(): Promise<void> {
  const w = worker;
  worker = undefined;
  if (w) await w.terminate();
}
