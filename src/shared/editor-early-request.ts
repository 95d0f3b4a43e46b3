// With extensions: the build's Vite config loads this file through scripts/vite-editor-html.ts, natively.
import { AUTH_REFRESH_MARGIN_TICKS, AUTH_TICK_MS } from './constants.js';
import { SESSION_STORAGE_KEY } from './first-paint.js';

/**
 * The browser's offline copy of a document is an IndexedDB database named OFFLINE_COPY_PREFIX + the document's
 * id; localStorage marks, under that name + a suffix, what it holds (client/features/editor/offline-copy-keys.ts).
 * Here because the editor page's early-request script below reads them before any of the app's code is in.
 */
export const OFFLINE_COPY_PREFIX = 'quillwright-doc-';
/** Set once IndexedDB holds the server's document. */
export const OFFLINE_COPY_STORED_SUFFIX = ':stored';
/** Changes not yet confirmed in IndexedDB. */
export const OFFLINE_COPY_JOURNAL_SUFFIX = ':unsaved';

/** Where the early-request script leaves its request for the app (client/features/editor/server-state.ts). */
export const EARLY_STATE_GLOBAL = '__quillwrightEarlyState';

/** What the early-request script leaves under EARLY_STATE_GLOBAL. */
export interface ScriptStateRequest {
  documentId: string;
  /** Date.now() when it was asked for. */
  at: number;
  controller: AbortController;
  response: Promise<Response>;
}

/**
 * The editor page's first script (written inline into the editor's HTML at build time: scripts/vite-editor-html.ts):
 * on `/editor/:id`, signed in, in a browser without a copy of the document, it asks for the document's Yjs state
 * (GET /api/documents/:id/state) while the page's HTML is still being read. The app asked for it only once its
 * code had been fetched and run and its route had matched, which in a fresh browser profile came a few hundred
 * milliseconds later, and the editor then waited for the state (bench:editor, opening from the server). A token
 * about to expire is left to the app, which refreshes it first. Allowed by the Content-Security-Policy by its
 * hash (src/server/app.ts), like the first-paint script.
 */
export const EARLY_STATE_SCRIPT =
  `(function(){try{` +
  `var m=/^\\/editor\\/([^/]+)\\/?$/.exec(location.pathname);if(!m)return;` +
  `var id=decodeURIComponent(m[1]),s=JSON.parse(localStorage.getItem(${JSON.stringify(SESSION_STORAGE_KEY)})||'null');` +
  `if(!s||typeof s.access_token!=='string'||!(s.expires_at*1000-Date.now()>${AUTH_TICK_MS * AUTH_REFRESH_MARGIN_TICKS}))return;` +
  `var n=${JSON.stringify(OFFLINE_COPY_PREFIX)}+id;` +
  `if(localStorage.getItem(n+${JSON.stringify(OFFLINE_COPY_STORED_SUFFIX)})!==null||` +
  `localStorage.getItem(n+${JSON.stringify(OFFLINE_COPY_JOURNAL_SUFFIX)})!==null)return;` +
  `var c=new AbortController();` +
  `window[${JSON.stringify(EARLY_STATE_GLOBAL)}]={documentId:id,at:Date.now(),controller:c,` +
  `response:fetch('/api/documents/'+encodeURIComponent(id)+'/state',{signal:c.signal,` +
  `headers:{authorization:'Bearer '+s.access_token,accept:'application/octet-stream'}})}` +
  `}catch(e){}})();`;
