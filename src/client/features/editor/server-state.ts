import { EARLY_STATE_GLOBAL, type ScriptStateRequest } from '@shared/editor-early-request';
import { authorizedFetch } from '@client/lib/api';
import { type EarlyStart, isFreshFor } from './early-start';
import { hasOfflineCopy } from './offline-copy-keys';

interface EarlyRequest extends EarlyStart {
  state: Promise<Uint8Array | null>;
  controller: AbortController;
  taken: boolean;
}

let early: EarlyRequest | null = null;

async function request(documentId: string, signal: AbortSignal): Promise<Uint8Array | null> {
  try {
    const response = await authorizedFetch('GET', `/api/documents/${encodeURIComponent(documentId)}/state`, {
      accept: 'application/octet-stream',
      signal,
    });
    return await stateOf(response);
  } catch {
    return null;
  }
}

async function stateOf(response: Response): Promise<Uint8Array | null> {
  if (response.status !== 200) return null;
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The request the editor page's first script made for this document (shared/editor-early-request.ts), once: it
 * is handed over to the app and forgotten. Refused (the token was revoked or replaced meanwhile), it is asked
 * again the app's way, which refreshes the token.
 */
function takeScriptRequest(documentId: string): EarlyRequest | null {
  const page = window as unknown as Record<string, ScriptStateRequest | undefined>;
  const asked = page[EARLY_STATE_GLOBAL];
  if (!asked) return null;
  delete page[EARLY_STATE_GLOBAL];
  if (!isFreshFor(asked, documentId)) {
    asked.controller.abort();
    return null;
  }
  const { controller } = asked;
  const state = asked.response.then((response) =>
    response.status === 401 ? request(documentId, controller.signal) : stateOf(response),
  );
  return {
    documentId,
    at: asked.at,
    controller,
    taken: false,
    state: state.catch(() => null),
  };
}

/**
 * Asks for the document's state as the editor's route matches, before the editor's code is in (routes.tsx), when
 * this browser has no copy of it, unless the page's first script already has. Called while rendering: asked once
 * per document within EARLY_START_FRESH_MS.
 */
export function requestServerStateEarly(documentId: string): void {
  // A browser with a copy of the document opens from it (useCollaboration).
  if (hasOfflineCopy(documentId)) return;
  const previous = early;
  if (previous && isFreshFor(previous, documentId)) return;
  if (previous && !previous.taken) previous.controller.abort();
  early = takeScriptRequest(documentId);
  if (early) return;
  const controller = new AbortController();
  early = {
    documentId,
    at: Date.now(),
    controller,
    taken: false,
    state: request(documentId, controller.signal),
  };
}

/**
 * The document's Yjs state as the server has it, over plain HTTP (GET /api/documents/:id/state), so the editor
 * can open from it while its collaboration socket is still connecting, authenticating and syncing: the request
 * made as the route matched, if it is this document's, recent and not yet used, else a new one. Null when there
 * is none to start from: the document has never been open live (its first state is made by the collaboration
 * server), the request failed, or it was cancelled. The socket's first sync then opens the editor, as it always
 * can.
 */
export function fetchServerState(documentId: string, signal: AbortSignal): Promise<Uint8Array | null> {
  const asked = early;
  if (asked && isFreshFor(asked, documentId) && !asked.taken) {
    const { controller, state } = asked;
    asked.taken = true;
    signal.addEventListener('abort', () => controller.abort());
    return state;
  }
  return request(documentId, signal);
}
