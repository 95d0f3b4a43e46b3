// One import worker (import-pool.ts): converts one file at a time and answers with the document or the
// error the route should give. Its heap and time are budgeted by the pool; a file that exceeds either ends
// this worker, not the server.
import { parentPort } from 'node:worker_threads';
import { AppError } from '../errors';
import { convertFileContent } from './convert-file';
import { IMPORT_WORKER_READY, type ImportRequest, type ImportResponse } from './import-pool';

parentPort!.on('message', (request: ImportRequest) => {
  const { format, fileName, bytes, whole, pictures } = request;
  convertFileContent(
    format,
    fileName,
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    whole,
    pictures,
  ).then(
    (result) => parentPort!.postMessage({ ok: true, result } satisfies ImportResponse),
    (error: unknown) =>
      parentPort!.postMessage(
        (error instanceof AppError
          ? { ok: false, status: error.status, code: error.code, message: error.message }
          : {
              ok: false,
              message: error instanceof Error ? (error.stack ?? error.message) : String(error),
            }) satisfies ImportResponse,
      ),
  );
});

parentPort!.postMessage(IMPORT_WORKER_READY);
