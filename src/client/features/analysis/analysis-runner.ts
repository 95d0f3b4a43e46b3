import type { AnalysisBlock, DocumentAnalysis } from '@shared/analysis/result';
import { createWorkerClient, sharedWithIdleRelease, type WorkerLike } from '@client/lib/worker-client';

/**
 * Where the Analyze panel's analysis runs: in a Web Worker (analysis.worker.ts), so a long document is never
 * analysed on the thread that handles typing. If the worker cannot start or run (no module workers, blocked by
 * policy), the same analysis is loaded into the page and runs there, after the pause in typing.
 */

export type AnalysisWorkerRequest = { id: number; blocks: AnalysisBlock[] };
export type AnalysisWorkerResponse =
  { type: 'result'; id: number; analysis: DocumentAnalysis } | { type: 'error'; id: number; error: string };

/** The part of `Worker` used here (tests pass a stand-in that speaks the same messages). */
export type AnalysisWorkerLike = WorkerLike<AnalysisWorkerRequest, AnalysisWorkerResponse>;

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
  let here: Promise<Analyze> | undefined;
  const client = createWorkerClient({
    startWorker: deps.startWorker,
    request: (id, blocks: AnalysisBlock[]): AnalysisWorkerRequest => ({ id, blocks }),
    read: (message: AnalysisWorkerResponse) =>
      message.type === 'result' ? { id: message.id, value: message.analysis } : message,
    fallback: async (blocks) => {
      here ??= deps.loadHere();
      return (await here)(blocks);
    },
    stoppedMessage: 'analysis stopped',
  });
  return {
    get mode() {
      return client.usingWorker ? 'worker' : 'page';
    },
    analyze: (blocks) => client.run(blocks),
    dispose: () => client.dispose(),
  };
}

/** How long an unused worker is kept, so closing and reopening the panel does not start a new one. */
const IDLE_MS = 60_000;

const acquireShared = sharedWithIdleRelease(
  () =>
    createAnalysisRunner({
      startWorker: () => new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module' }),
      loadHere: async () => (await import('@shared/analysis/analyze')).createBlockAnalyzer(),
    }),
  IDLE_MS,
);

/** The page's one analysis runner, started on first use; release() it when the panel closes. */
export function acquireAnalysisRunner(): { runner: AnalysisRunner; release: () => void } {
  const { instance, release } = acquireShared();
  return { runner: instance, release };
}
