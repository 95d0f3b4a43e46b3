import type { GrammarChange } from '@shared/schemas/ai';
import { aiApi } from './api';

/**
 * Where the live underlines are checked: Harper in a Web Worker of this page (grammar.worker.ts), so no
 * text leaves the browser and no request is made while typing. The worker, and with it the WASM binary
 * (one cached static file), is only started when an editor with live grammar on mounts. If the worker cannot
 * run here (no module workers, WebAssembly blocked, the binary failing to load), checks go to the server's
 * `POST /api/ai/grammar` instead, which runs the same Harper, so the feature keeps working.
 */

export type GrammarWorkerRequest = { id: number; text: string };
export type GrammarWorkerResponse =
  | { type: 'ready' }
  /** A one-time warm-up done in idle time (grammar.worker.ts); only bench:grammar waits for it. */
  | { type: 'warmed' }
  | { type: 'failed'; error: string }
  /** `lintMs`: time spent linting in the worker (bench:grammar separates it from the round trip). */
  | { type: 'result'; id: number; changes: GrammarChange[]; lintMs?: number }
  | { type: 'error'; id: number; error: string };

/** The part of `Worker` used here (tests pass a stand-in that speaks the same messages). */
export interface WorkerLike {
  postMessage(message: GrammarWorkerRequest): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<GrammarWorkerResponse>) => void): void;
  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void;
  terminate(): void;
}

export interface GrammarChecker {
  check(text: string): Promise<GrammarChange[]>;
  /** `browser` while the worker serves checks, `server` once it could not. */
  readonly mode: 'browser' | 'server';
  /** Whether a check was asked for (so the worker was started), or checks go to the server. */
  readonly started: boolean;
  dispose(): void;
}

/**
 * Pause after the last edit before a check. In the browser a paragraph check costs a few milliseconds of
 * another thread and no request, so there is none: the edited paragraph is checked at once and the writer
 * sees the underline as soon as Harper answers (target ≤ 100 ms after the keystroke; docs/performance.md).
 * The server is asked only after a pause, as before, so typing does not send a request per keystroke.
 */
export const BROWSER_CHECK_DELAY_MS = 0;
export const SERVER_CHECK_DELAY_MS = 600;

export function createGrammarChecker(deps: {
  startWorker: () => WorkerLike;
  serverCheck: (text: string) => Promise<GrammarChange[]>;
}): GrammarChecker {
  let mode: 'browser' | 'server' = 'browser';
  let worker: WorkerLike | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    { text: string; resolve: (changes: GrammarChange[]) => void; reject: (error: Error) => void }
  >();

  const fallBack = () => {
    if (mode === 'server') return;
    mode = 'server';
    worker?.terminate();
    worker = undefined;
    for (const { text, resolve, reject } of pending.values()) deps.serverCheck(text).then(resolve, reject);
    pending.clear();
  };

  const start = (): WorkerLike | undefined => {
    try {
      const w = deps.startWorker();
      w.addEventListener('message', (event) => {
        const message = event.data;
        if (message.type === 'ready' || message.type === 'warmed') return;
        if (message.type === 'failed') return fallBack();
        const waiter = pending.get(message.id);
        if (!waiter) return;
        pending.delete(message.id);
        if (message.type === 'result') waiter.resolve(message.changes);
        else waiter.reject(new Error(message.error));
      });
      // A worker script that cannot load or run (old browser, blocked by policy) reports here.
      w.addEventListener('error', fallBack);
      w.addEventListener('messageerror', fallBack);
      return w;
    } catch {
      fallBack();
      return undefined;
    }
  };

  return {
    get mode() {
      return mode;
    },
    get started() {
      return mode === 'server' || worker !== undefined;
    },
    check(text) {
      if (mode === 'server') return deps.serverCheck(text);
      worker ??= start();
      const w = worker;
      if (!w) return deps.serverCheck(text);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { text, resolve, reject });
        w.postMessage({ id, text });
      });
    },
    dispose() {
      worker?.terminate();
      worker = undefined;
      for (const { reject } of pending.values()) reject(new Error('grammar checker stopped'));
      pending.clear();
    },
  };
}

/** How long an unused worker is kept, so going from one document to the next does not rebuild Harper. */
const IDLE_MS = 60_000;

let shared: { checker: GrammarChecker; users: number; idle?: ReturnType<typeof setTimeout> } | undefined;

/** The page's one checker, started on first use; release() it when the editor goes. */
export function acquireGrammarChecker(): { checker: GrammarChecker; release: () => void } {
  shared ??= {
    checker: createGrammarChecker({
      startWorker: () => new Worker(new URL('./grammar.worker.ts', import.meta.url), { type: 'module' }),
      serverCheck: async (text) => (await aiApi.grammar(text)).changes,
    }),
    users: 0,
  };
  const entry = shared;
  clearTimeout(entry.idle);
  entry.users += 1;
  let released = false;
  return {
    checker: entry.checker,
    release() {
      if (released) return;
      released = true;
      entry.users -= 1;
      if (entry.users > 0) return;
      entry.idle = setTimeout(() => {
        if (entry.users > 0 || shared !== entry) return;
        entry.checker.dispose();
        shared = undefined;
      }, IDLE_MS);
    },
  };
}
