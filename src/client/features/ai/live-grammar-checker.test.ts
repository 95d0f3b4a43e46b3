import { expect, it, vi } from 'vitest';
import type { GrammarChange } from '@shared/schemas/ai';
import {
  createGrammarChecker,
  type GrammarWorkerRequest,
  type GrammarWorkerResponse,
  type WorkerLike,
} from './live-grammar-checker';

const change = (original: string): GrammarChange => ({
  offset: 0,
  length: original.length,
  original,
  replacement: original.toUpperCase(),
  message: 'm',
  kind: 'k',
});

/** A worker stand-in speaking grammar.worker.ts's messages; the test decides what it answers. */
class FakeWorker implements WorkerLike {
  requests: GrammarWorkerRequest[] = [];
  terminated = false;
  private listeners = new EventTarget();
  postMessage(message: GrammarWorkerRequest) {
    this.requests.push(message);
  }
  addEventListener(type: string, listener: (event: never) => void) {
    this.listeners.addEventListener(type, listener as EventListener);
  }
  dispatchEvent(event: Event) {
    this.listeners.dispatchEvent(event);
  }
  answer(message: GrammarWorkerResponse) {
    this.dispatchEvent(new MessageEvent('message', { data: message }));
  }
  terminate() {
    this.terminated = true;
  }
}

function setup() {
  const workers: FakeWorker[] = [];
  const serverCheck = vi.fn((text: string) => Promise.resolve([change(`server:${text}`)]));
  const checker = createGrammarChecker({
    startWorker: () => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker;
    },
    serverCheck,
  });
  return { checker, workers, serverCheck };
}

it('starts the worker on the first check only and answers each check from it, never from the server', async () => {
  const { checker, workers, serverCheck } = setup();
  expect(workers).toHaveLength(0);
  expect(checker.started).toBe(false);
  const first = checker.check('one');
  expect(checker.started).toBe(true);
  const second = checker.check('two');
  expect(workers).toHaveLength(1);
  const [worker] = workers;
  expect(worker!.requests.map((r) => r.text)).toEqual(['one', 'two']);
  worker!.answer({ type: 'ready' });
  // Answers are matched by id, whatever their order.
  worker!.answer({ type: 'result', id: worker!.requests[1]!.id, changes: [change('two')] });
  worker!.answer({ type: 'result', id: worker!.requests[0]!.id, changes: [change('one')] });
  await expect(first).resolves.toEqual([change('one')]);
  await expect(second).resolves.toEqual([change('two')]);
  expect(checker.mode).toBe('browser');
  expect(serverCheck).not.toHaveBeenCalled();
});

it('a lint error rejects that check only', async () => {
  const { checker, workers } = setup();
  const check = checker.check('bad');
  workers[0]!.answer({ type: 'error', id: workers[0]!.requests[0]!.id, error: 'boom' });
  await expect(check).rejects.toThrow('boom');
  expect(checker.mode).toBe('browser');
});

it.each([
  ['the worker script fails to load', (w: FakeWorker) => w.dispatchEvent(new Event('error'))],
  ['Harper cannot start in the worker', (w: FakeWorker) => w.answer({ type: 'failed', error: 'no wasm' })],
])('when %s, waiting and later checks go to the server', async (_name, fail) => {
  const { checker, workers, serverCheck } = setup();
  const waiting = checker.check('early');
  fail(workers[0]!);
  await expect(waiting).resolves.toEqual([change('server:early')]);
  expect(checker.mode).toBe('server');
  expect(workers[0]!.terminated).toBe(true);
  await expect(checker.check('later')).resolves.toEqual([change('server:later')]);
  expect(serverCheck).toHaveBeenCalledTimes(2);
  expect(workers).toHaveLength(1);
});

it('a browser without module workers uses the server from the start', async () => {
  const serverCheck = vi.fn(() => Promise.resolve([change('server')]));
  const checker = createGrammarChecker({
    startWorker: () => {
      throw new TypeError('Worker is not defined');
    },
    serverCheck,
  });
  await expect(checker.check('text')).resolves.toEqual([change('server')]);
  expect(checker.mode).toBe('server');
  expect(checker.started).toBe(true);
});
