// The compile worker (compile-pool.ts): assembles and renders one book at a time, off the server's event loop.
import { parentPort } from 'node:worker_threads';
import { renderBook, type CompileJob } from './render';

export type CompileWorkerResponse = { ok: true; bytes: Uint8Array } | { ok: false; message: string };

parentPort!.on('message', (job: CompileJob) => {
  renderBook(job).then(
    (bytes) =>
      parentPort!.postMessage({ ok: true, bytes } satisfies CompileWorkerResponse, [
        bytes.buffer as ArrayBuffer,
      ]),
    (error: unknown) =>
      parentPort!.postMessage({
        ok: false,
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies CompileWorkerResponse),
  );
});
