import { afterEach, expect, it, vi } from 'vitest';
import { EARLY_STATE_GLOBAL, type ScriptStateRequest } from '@shared/editor-early-request';
import { fetchServerState, requestServerStateEarly } from './server-state';

const page = window as unknown as Record<string, ScriptStateRequest | undefined>;
const STATE = new Uint8Array([1, 2, 3, 4]);

afterEach(() => {
  vi.unstubAllGlobals();
  delete page[EARLY_STATE_GLOBAL];
});

function madeByPageScript(documentId: string, response: Response, at = Date.now()): ScriptStateRequest {
  const request = { documentId, at, controller: new AbortController(), response: Promise.resolve(response) };
  page[EARLY_STATE_GLOBAL] = request;
  return request;
}

it('takes over the request the page’s first script made for this document instead of asking again', async () => {
  const fetchSpy = vi.fn();
  vi.stubGlobal('fetch', fetchSpy);
  madeByPageScript('doc-a', new Response(STATE, { status: 200 }));
  requestServerStateEarly('doc-a');
  expect(page[EARLY_STATE_GLOBAL]).toBeUndefined();
  expect(await fetchServerState('doc-a', new AbortController().signal)).toEqual(STATE);
  expect(fetchSpy).not.toHaveBeenCalled();
});

it('asks again the app’s way when the script’s request was refused', async () => {
  const fetchSpy = vi.fn(async (_url: string) => new Response(STATE, { status: 200 }));
  vi.stubGlobal('fetch', fetchSpy);
  madeByPageScript('doc-b', new Response(null, { status: 401 }));
  requestServerStateEarly('doc-b');
  expect(await fetchServerState('doc-b', new AbortController().signal)).toEqual(STATE);
  expect(fetchSpy).toHaveBeenCalledOnce();
  expect(String(fetchSpy.mock.calls[0]![0])).toBe('/api/documents/doc-b/state');
});

it('cancels a script request for another document and asks for this one', async () => {
  const fetchSpy = vi.fn(async () => new Response(STATE, { status: 200 }));
  vi.stubGlobal('fetch', fetchSpy);
  const other = madeByPageScript('doc-other', new Response(new Uint8Array([9]), { status: 200 }));
  requestServerStateEarly('doc-c');
  expect(other.controller.signal.aborted).toBe(true);
  expect(await fetchServerState('doc-c', new AbortController().signal)).toEqual(STATE);
  expect(fetchSpy).toHaveBeenCalledOnce();
});
