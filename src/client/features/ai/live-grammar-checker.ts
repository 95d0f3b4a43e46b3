import type { GrammarChange } from '@shared/schemas/ai';
import { DEFAULT_PREFERENCES, type GrammarDialect } from '@shared/settings-defaults';
import {
  createWorkerClient,
  sharedWithIdleRelease,
  type WorkerLike as GenericWorkerLike,
  type WorkerMessageMeaning,
} from '@client/lib/worker-client';
import { aiApi } from './api';

/**
 * Where the live underlines are checked: Harper in a Web Worker of this page (grammar.worker.ts), so no
 * text leaves the browser and no request is made while typing. The worker, and with it the WASM binary
 * (one cached static file), is only started when an editor with live grammar on mounts. If the worker cannot
 * run here (no module workers, WebAssembly blocked, the binary failing to load), checks go to the server's
 * `POST /api/ai/grammar` instead, which runs the same Harper, so the feature keeps working.
 */

export type GrammarWorkerRequest = { id: number; text: string; dialect: GrammarDialect };
export type GrammarWorkerResponse =
  | { type: 'ready' }
  /** A one-time warm-up done in idle time (grammar.worker.ts); only bench:grammar waits for it. */
  | { type: 'warmed' }
  | { type: 'failed'; error: string }
  /** `lintMs`: time spent linting in the worker (bench:grammar separates it from the round trip). */
  | { type: 'result'; id: number; changes: GrammarChange[]; lintMs?: number }
  | { type: 'error'; id: number; error: string };

/** The part of `Worker` used here (tests pass a stand-in that speaks the same messages). */
export type WorkerLike = GenericWorkerLike<GrammarWorkerRequest, GrammarWorkerResponse>;

export interface GrammarChecker {
  /** Checks in the writer's English (the server's fallback reads it from the writer's stored settings). */
  check(text: string, dialect?: GrammarDialect): Promise<GrammarChange[]>;
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

/**
 * No check at all for this long after an editor opens; then the first pass over the document (and the checker's
 * start: the worker's download and WebAssembly compile, seconds of CPU) waits for a pause in editing. A writer
 * typing as the document opens is then not slowed by it (docs/performance.md, "Typing right after opening").
 */
export const FIRST_PASS_AFTER_MS = 1500;

export function createGrammarChecker(deps: {
  startWorker: () => WorkerLike;
  serverCheck: (text: string) => Promise<GrammarChange[]>;
}): GrammarChecker {
  const client = createWorkerClient({
    startWorker: deps.startWorker,
    request: (id, input: { text: string; dialect: GrammarDialect }): GrammarWorkerRequest => ({
      id,
      ...input,
    }),
    read: (message: GrammarWorkerResponse): WorkerMessageMeaning<GrammarChange[]> => {
      if (message.type === 'ready' || message.type === 'warmed') return 'ignore';
      if (message.type === 'failed') return 'failed';
      return message.type === 'result' ? { id: message.id, value: message.changes } : message;
    },
    fallback: (input) => deps.serverCheck(input.text),
    stoppedMessage: 'grammar checker stopped',
  });
  return {
    get mode() {
      return client.usingWorker ? 'browser' : 'server';
    },
    get started() {
      return client.started;
    },
    check: (text, dialect = DEFAULT_PREFERENCES.grammarDialect) => client.run({ text, dialect }),
    dispose: () => client.dispose(),
  };
}

/** How long an unused worker is kept, so going from one document to the next does not rebuild Harper. */
const IDLE_MS = 60_000;

const acquireShared = sharedWithIdleRelease(
  () =>
    createGrammarChecker({
      startWorker: () => new Worker(new URL('./grammar.worker.ts', import.meta.url), { type: 'module' }),
      serverCheck: async (text) => (await aiApi.grammar(text)).changes,
    }),
  IDLE_MS,
);

/** The page's one checker, started on first use; release() it when the editor goes. */
export function acquireGrammarChecker(): { checker: GrammarChecker; release: () => void } {
  const { instance, release } = acquireShared();
  return { checker: instance, release };
}
