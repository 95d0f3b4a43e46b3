/**
 * A request/answer client for a Web Worker that may not be able to run (no module workers, WebAssembly or the
 * script blocked by policy): requests carry an id, the worker answers by id, and once the worker fails — to
 * start, to load, or by saying so — every pending and later request goes to `fallback` instead (the same work
 * in the page, or on the server). Used by live grammar and the Analyze panel.
 */

/** The part of `Worker` used here (tests pass a stand-in that speaks the same messages). */
export interface WorkerLike<Request, Response> {
  postMessage(message: Request): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<Response>) => void): void;
  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void;
  terminate(): void;
}

/** What one worker message means: an answer to request `id`, the worker giving up, or nothing to act on. */
export type WorkerMessageMeaning<Value> =
  { id: number; value: Value } | { id: number; error: string } | 'failed' | 'ignore';

export interface WorkerClient<Input, Value> {
  run(input: Input): Promise<Value>;
  /** False once the worker could not serve and `fallback` took over. */
  readonly usingWorker: boolean;
  /** Whether a request was made (so the worker was started), or the fallback serves. */
  readonly started: boolean;
  dispose(): void;
}

export function createWorkerClient<Input, Value, Request, Response>(deps: {
  startWorker: () => WorkerLike<Request, Response>;
  request: (id: number, input: Input) => Request;
  read: (message: Response) => WorkerMessageMeaning<Value>;
  fallback: (input: Input) => Promise<Value>;
  /** The error pending requests get when the client is disposed. */
  stoppedMessage: string;
}): WorkerClient<Input, Value> {
  let usingWorker = true;
  let worker: WorkerLike<Request, Response> | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    { input: Input; resolve: (value: Value) => void; reject: (error: Error) => void }
  >();

  const fallBack = () => {
    if (!usingWorker) return;
    usingWorker = false;
    worker?.terminate();
    worker = undefined;
    for (const { input, resolve, reject } of pending.values()) deps.fallback(input).then(resolve, reject);
    pending.clear();
  };

  const start = (): WorkerLike<Request, Response> | undefined => {
    try {
      const w = deps.startWorker();
      w.addEventListener('message', (event) => {
        const meaning = deps.read(event.data);
        if (meaning === 'ignore') return;
        if (meaning === 'failed') return fallBack();
        const waiter = pending.get(meaning.id);
        if (!waiter) return;
        pending.delete(meaning.id);
        if ('value' in meaning) waiter.resolve(meaning.value);
        else waiter.reject(new Error(meaning.error));
      });
      // A worker script that cannot load or run reports here.
      w.addEventListener('error', fallBack);
      w.addEventListener('messageerror', fallBack);
      return w;
    } catch {
      fallBack();
      return undefined;
    }
  };

  return {
    get usingWorker() {
      return usingWorker;
    },
    get started() {
      return !usingWorker || worker !== undefined;
    },
    run(input) {
      if (!usingWorker) return deps.fallback(input);
      worker ??= start();
      const w = worker;
      if (!w) return deps.fallback(input);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { input, resolve, reject });
        w.postMessage(deps.request(id, input));
      });
    },
    dispose() {
      worker?.terminate();
      worker = undefined;
      for (const { reject } of pending.values()) reject(new Error(deps.stoppedMessage));
      pending.clear();
    },
  };
}

/**
 * One instance per page, shared by its users and disposed `idleMs` after the last one released it (so closing
 * and reopening a panel, or going from one document to the next, does not start a new worker).
 */
export function sharedWithIdleRelease<T extends { dispose(): void }>(
  create: () => T,
  idleMs: number,
): () => { instance: T; release: () => void } {
  let shared: { instance: T; users: number; idle?: ReturnType<typeof setTimeout> } | undefined;
  return () => {
    shared ??= { instance: create(), users: 0 };
    const entry = shared;
    clearTimeout(entry.idle);
    entry.users += 1;
    let released = false;
    return {
      instance: entry.instance,
      release() {
        if (released) return;
        released = true;
        entry.users -= 1;
        if (entry.users > 0) return;
        entry.idle = setTimeout(() => {
          if (entry.users > 0 || shared !== entry) return;
          entry.instance.dispose();
          shared = undefined;
        }, idleMs);
      },
    };
  };
}
