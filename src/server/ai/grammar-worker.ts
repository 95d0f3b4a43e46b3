// Runs Harper in a worker thread: linting a long text takes tens to hundreds of milliseconds of pure CPU,
// which on the main thread would stall every other request and live-collaboration message meanwhile.
// Only erasable TypeScript here: Node runs this file directly (type stripping), outside tsx and Vite.
import { parentPort } from 'node:worker_threads';
import { LocalLinter } from 'harper.js';
import { binaryInlined } from 'harper.js/binaryInlined';
// With its .ts extension: Node resolves no extensions itself. That module is erasable TypeScript too, and its
// own only import is type-only.
import { rawLint, type RawLint } from '../../shared/ai/grammar-lints.ts';

export type WorkerRequest = { id: number; text: string };
export type WorkerResponse = { id: number; lints: RawLint[] } | { id: number; error: string };

const linter = new LocalLinter({ binary: binaryInlined });
const ready = linter.setup().then(() => linter.lint('Warm up the linter.', { language: 'plaintext' }));

async function lint(text: string): Promise<RawLint[]> {
  await ready;
  const lints = await linter.lint(text, { language: 'plaintext' });
  return lints.map(rawLint);
}

parentPort?.on('message', (request: WorkerRequest) => {
  lint(request.text).then(
    (lints) => parentPort?.postMessage({ id: request.id, lints } satisfies WorkerResponse),
    (error: unknown) =>
      parentPort?.postMessage({ id: request.id, error: String(error) } satisfies WorkerResponse),
  );
});
