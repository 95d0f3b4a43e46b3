// Harper in a Web Worker: the live underlines are checked here, off the main thread, so typing never waits
// on a lint. Started by live-grammar-checker.ts only when an editor with live grammar mounts.
import { Dialect, LocalLinter } from 'harper.js';
// The slim build of the binary: the same lints as the full one (checked side by side), and harper.js loads
// it with one fetch where the full flavour fetches the slim file too. Its `new URL(…, import.meta.url)`
// makes Vite emit the WASM as its own hashed, cached file (16 MB; 7.5 MB as brotli), never inlined in JS.
import { slimBinary } from 'harper.js/slimBinary';
import { changesFromLints, rawLint } from '@shared/ai/grammar-lints';
import type { GrammarDialect } from '@shared/settings-defaults';
import type { GrammarWorkerRequest, GrammarWorkerResponse } from './live-grammar-checker';
import { createSentenceMemo } from './live-grammar-sentences';

// The project compiles against the DOM library (one program for all client code), where `self` is a
// Window; this is the part of the worker's global scope used here.
const scope = self as unknown as {
  postMessage(message: GrammarWorkerResponse): void;
  onmessage: ((event: MessageEvent<GrammarWorkerRequest>) => void) | null;
};

function post(message: GrammarWorkerResponse) {
  scope.postMessage(message);
}

const HARPER_DIALECTS: Record<GrammarDialect, Dialect> = {
  american: Dialect.American,
  british: Dialect.British,
  canadian: Dialect.Canadian,
  australian: Dialect.Australian,
};

// American English, the default, is the linter made at start; another dialect gets its own linter (its own
// dictionary, the same WebAssembly module) when a writer of that English first checks.
const linter = new LocalLinter({ binary: slimBinary });
// Compiling the binary and building the dictionary takes a second or more; one lint with a common typo warms
// the paths the first checks take.
const ready = linter
  .setup()
  .then(() => linter.lint('Warm up teh linter.', { language: 'plaintext' }))
  .then(
    () => post({ type: 'ready' }),
    (error: unknown) => {
      post({ type: 'failed', error: String(error) });
      throw error;
    },
  );

// A word with no dictionary word within two edits (half-typed "Typiquestion", "Qwertyuiop") makes Harper
// build a wider fuzzy search the first time, once per worker: 2–4 s (in Node and in this worker, on the loaded
// 2-core machine), during which checks wait. So it is built ahead, once the worker has been idle for a moment
// after the document's first pass, rather than on the writer's first odd word or before the first underlines.
const WIDE_SEARCH_WARM_UP = 'Qwertyuiop.';
const IDLE_BEFORE_WARM_UP_MS = 1_000;
let wideSearchWarmed = false;
let idle: ReturnType<typeof setTimeout> | undefined;
function warmWideSearchWhenIdle() {
  if (wideSearchWarmed) return;
  clearTimeout(idle);
  idle = setTimeout(() => {
    wideSearchWarmed = true;
    void linter.lint(WIDE_SEARCH_WARM_UP, { language: 'plaintext' }).then(() => post({ type: 'warmed' }));
  }, IDLE_BEFORE_WARM_UP_MS);
}
// (A failed start was reported to the page above; the second callback only marks the rejection handled.)
ready.then(warmWideSearchWhenIdle, () => {});

function sentenceCheck(dialectLinter: LocalLinter) {
  return createSentenceMemo(async (text) => {
    const lints = await dialectLinter.lint(text, { language: 'plaintext' });
    return changesFromLints(text, lints.map(rawLint));
  });
}
const checks = new Map<GrammarDialect, ReturnType<typeof sentenceCheck>>([
  ['american', sentenceCheck(linter)],
]);
function checkFor(dialect: GrammarDialect) {
  let check = checks.get(dialect);
  if (!check) {
    check = sentenceCheck(new LocalLinter({ binary: slimBinary, dialect: HARPER_DIALECTS[dialect] }));
    checks.set(dialect, check);
  }
  return check;
}

scope.onmessage = (event) => {
  const { id, text, dialect } = event.data;
  clearTimeout(idle);
  ready
    .then(async () => {
      const started = performance.now();
      const changes = await checkFor(dialect)(text);
      warmWideSearchWhenIdle();
      return { changes, lintMs: performance.now() - started };
    })
    .then(
      ({ changes, lintMs }) => post({ type: 'result', id, changes, lintMs }),
      (error: unknown) => post({ type: 'error', id, error: String(error) }),
    );
};
