import type { AnalysisBlock, DocumentAnalysis } from '@shared/analysis/result';

/**
 * Where the Analyze panel's analysis runs: in a Web Worker (analysis.worker.ts), so a long document is never
 * analysed on the thread that handles typing. If the worker cannot start or run (no module workers, blocked by
 * policy), the same analysis is loaded into the page and runs there, after the pause in typing.
 */

export type AnalysisWorkerRequest = { id: number; blocks: AnalysisBlock[] };
export type AnalysisWorkerResponse =
  { type: 'result'; id: number; analysis: DocumentAnalysis } | { type: 'error'; id: number; error: string };

/** The part of `Worker` used here (tests pass a stand-in that speaks the same messages). */
export interface AnalysisWorkerLike {
  postMessage(message: AnalysisWorkerRequest): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<AnalysisWorkerResponse>) => void): void;
  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void;
  terminate(): void;
}

export interface AnalysisRunner {
  analyze(blocks: AnalysisBlock[]): Promise<DocumentAnalysis>;
  readonly mode: 'worker' | 'page';
  dispose(): void;
}

type Analyze = (blocks: AnalysisBlock[]) => DocumentAnalysis;

export function createAnalysisRunner(deps: {
  startWorker: () => AnalysisWorkerLike;
  /** The analysis loaded into the page (a dynamic import), when the worker cannot serve. */
  loadHere: () => Promise<Analyze>;
}): AnalysisRunner {
  let mode: 'worker' | 'page' = 'worker';
  let worker: AnalysisWorkerLike | undefined;
  let here: Promise<Analyze> | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    { blocks: AnalysisBlock[]; resolve: (a: DocumentAnalysis) => void; reject: (e: Error) => void }
  >();

  const analyzeHere = async (blocks: AnalysisBlock[]) => {
    here ??= deps.loadHere();
    return (await here)(blocks);
  };

  const fallBack = () => {
    if (mode === 'page') return;
    mode = 'page';
    worker?.terminate();
    worker = undefined;
    for (const { blocks, resolve, reject } of pending.values()) analyzeHere(blocks).then(resolve, reject);
    pending.clear();
  };

  const start = (): AnalysisWorkerLike | undefined => {
    try {
      const w = deps.startWorker();
      w.addEventListener('message', (event) => {
        const message = event.data;
        const waiter = pending.get(message.id);
        if (!waiter) return;
        pending.delete(message.id);
        if (message.type === 'result') waiter.resolve(message.analysis);
        else waiter.reject(new Error(message.error));
      });
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
    analyze(blocks) {
      if (mode === 'page') return analyzeHere(blocks);
      worker ??= start();
      const w = worker;
      if (!w) return analyzeHere(blocks);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { blocks, resolve, reject });
        w.postMessage({ id, blocks });
      });
    },
    dispose() {
      worker?.terminate();
      worker = undefined;
      for (const { reject } of pending.values()) reject(new Error('analysis stopped'));
      pending.clear();
    },
  };
}

/** How long an unused worker is kept, so closing and reopening the panel does not start a new one. */
const IDLE_MS = 60_000;

let shared: { runner: AnalysisRunner; users: number; idle?: ReturnType<typeof setTimeout> } | undefined;

/** The page's one analysis runner, started on first use; release() it when the panel closes. */
export function acquireAnalysisRunner(): { runner: AnalysisRunner; release: () => void } {
  shared ??= {
    runner: createAnalysisRunner({
      startWorker: () => new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module' }),
      loadHere: async () => (await import('@shared/analysis/analyze')).createBlockAnalyzer(),
    }),
    users: 0,
  };
  const entry = shared;
  clearTimeout(entry.idle);
  entry.users += 1;
  let released = false;
  return {
    runner: entry.runner,
    release() {
      if (released) return;
      released = true;
      entry.users -= 1;
      if (entry.users > 0) return;
      entry.idle = setTimeout(() => {
        if (entry.users > 0 || shared !== entry) return;
        entry.runner.dispose();
        shared = undefined;
      }, IDLE_MS);
    },
  };
}
