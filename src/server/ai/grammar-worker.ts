// Runs Harper in a worker thread: linting a long text takes tens to hundreds of milliseconds of pure CPU,
// which on the main thread would stall every other request and live-collaboration message meanwhile.
// Only erasable TypeScript here: Node runs this file directly (type stripping), outside tsx and Vite.
import { parentPort } from 'node:worker_threads';
import { Dialect, LocalLinter } from 'harper.js';
import { binaryInlined } from 'harper.js/binaryInlined';
// With its .ts extension: Node resolves no extensions itself. That module is erasable TypeScript too, and its
// own only import is type-only.
import { rawLint, type RawLint } from '../../shared/ai/grammar-lints.ts';
import type { GrammarDialect } from '../../shared/settings-defaults.ts';

export type WorkerRequest = { id: number; text: string; dialect: GrammarDialect };
export type WorkerResponse = { id: number; lints: RawLint[] } | { id: number; error: string };

const HARPER_DIALECTS: Record<GrammarDialect, Dialect> = {
  american: Dialect.American,
  british: Dialect.British,
  canadian: Dialect.Canadian,
  australian: Dialect.Australian,
};

/**
 * One linter per dialect, made when a writer of that dialect first checks (each builds its own dictionary; the
 * WebAssembly module is shared). American English, the default, is built at start.
 */
const linters = new Map<GrammarDialect, Promise<LocalLinter>>();
function linterFor(dialect: GrammarDialect): Promise<LocalLinter> {
  let ready = linters.get(dialect);
  if (!ready) {
    const linter = new LocalLinter({ binary: binaryInlined, dialect: HARPER_DIALECTS[dialect] });
    ready = linter
      .setup()
      .then(() => linter.lint('Warm up the linter.', { language: 'plaintext' }))
      .then(() => linter);
    linters.set(dialect, ready);
  }
  return ready;
}
void linterFor('american');

async function lint(text: string, dialect: GrammarDialect): Promise<RawLint[]> {
  const linter = await linterFor(dialect);
  const lints = await linter.lint(text, { language: 'plaintext' });
  return lints.map(rawLint);
}

parentPort?.on('message', (request: WorkerRequest) => {
  lint(request.text, request.dialect).then(
    (lints) => parentPort?.postMessage({ id: request.id, lints } satisfies WorkerResponse),
    (error: unknown) =>
      parentPort?.postMessage({ id: request.id, error: String(error) } satisfies WorkerResponse),
  );
});
