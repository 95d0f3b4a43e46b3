import { fromBase64, toBase64 } from 'lib0/buffer';
import * as Y from 'yjs';

/**
 * The contract between the collaboration server (src/server/collab) and the editor in the browser.
 * See docs/collaboration.md for the full picture.
 */

/** WebSocket endpoint on the app's own origin: `${ws|wss}://${host}${COLLAB_PATH}`. Document name = document id. */
export const COLLAB_PATH = '/api/collab';

/** Y.XmlFragment that holds the rich-text body (TipTap Collaboration's `field`). */
export const COLLAB_FRAGMENT = 'default';

/** The server stores a document this long after the last change (and at least every max interval while typing). */
export const COLLAB_STORE_DEBOUNCE_MS = 1_000;
export const COLLAB_STORE_MAX_DEBOUNCE_MS = 5_000;

/** How long a connection's access decision is trusted before the next message re-checks it. */
export const COLLAB_ACCESS_RECHECK_MS = 2_000;

/**
 * Why the server refused or ended a document connection. The provider reports the `reason` string:
 * on connect through `onAuthenticationFailed({ reason })`, later through `onClose({ event })`
 * (`event.reason`). Codes follow Hocuspocus (4401/4403) and HTTP (4404).
 */
export const COLLAB_CLOSE = {
  /** No token, a malformed or expired one, or a signed-out session. Sign in again. */
  unauthorized: { code: 4401, reason: 'unauthorized' },
  /** The document does not exist or this user may not open it (the REST API answers 404 alike). */
  notFound: { code: 4404, reason: 'document-not-found' },
  /** Access was lost while connected: session revoked, document deleted, share link changed. */
  accessRevoked: { code: 4403, reason: 'access-revoked' },
  /** One message was larger than COLLAB_LIMITS.maxMessageBytes. */
  messageTooLarge: { code: 4413, reason: 'message-too-large' },
  /** The document would grow past COLLAB_LIMITS.maxDocumentBytes; nothing of that message was applied. */
  documentTooLarge: { code: 4507, reason: 'document-too-large' },
  /** More messages than COLLAB_LIMITS allows in a burst: a flood, not typing. */
  rateLimited: { code: 4429, reason: 'rate-limited' },
  /** A view-only link visitor reads the saved copy over REST, not the live document (it holds every suggestion). */
  viewOnly: { code: 4405, reason: 'view-only' },
  /** A "Can suggest" visitor sent a change that was not a tracked suggestion; nothing of it was applied. */
  suggestionsOnly: { code: 4409, reason: 'suggestions-only' },
  /**
   * The server could not decide access because its database failed (an outage, a lost connection). Not a
   * refusal: the whole socket is closed, and the provider reconnects and re-sends what was not acknowledged.
   */
  unavailable: { code: 4503, reason: 'unavailable' },
} as const;

/**
 * Per-connection limits of the collaboration socket. A fast typist sends about two messages per keystroke
 * (the change and the cursor), some 30 a second; a paste is one message. The bucket lets a connection send
 * `messageBurst` messages at once and `messagesPerSecond` sustained; beyond that it is a flood and the
 * connection is closed (the provider reconnects, and resends what the server has not yet acknowledged).
 * Sizes are of Yjs binary: 4 MiB holds the paste of a book chapter; 16 MiB of state is far beyond the
 * largest document the REST API accepts (MAX_RICH_TEXT_NODES).
 */
export const COLLAB_LIMITS = {
  messagesPerSecond: 100,
  messageBurst: 400,
  maxMessageBytes: 4 * 1024 * 1024,
  maxDocumentBytes: 16 * 1024 * 1024,
} as const;

/**
 * Stateless messages from the server to every client of a document (`provider.on('stateless', ({ payload }) => …)`).
 * - `title`: the title changed through `PATCH /api/documents/:id` (title stays a REST field).
 * - `stored`: the server wrote the document to the database. `stateVector` (base64) is the Yjs state
 *   vector of what was written; a client's edits are durable once it covers the client's own clock
 *   (see isStoredFor). `version` is the new ETag value, `updatedAt` the ISO time of the last change.
 * - `access`: sent to one connection only, when a re-check found its role changed but still open on the
 *   live document (an editor made suggester, say): the page switches mode at once instead of learning it
 *   from a refused edit.
 * - `comments`: the document's comment threads changed (created, replied to, edited, resolved, deleted):
 *   the client fetches them again (`GET /api/documents/:id/threads`).
 */
const COLLAB_ROLES = ['owner', 'editor', 'suggester', 'commenter', 'viewer'] as const;
type CollabRole = (typeof COLLAB_ROLES)[number];

export type CollabStatelessMessage =
  | { type: 'title'; title: string }
  | { type: 'stored'; stateVector: string; version: number; updatedAt: string }
  | { type: 'access'; role: CollabRole }
  | { type: 'comments' };

export function encodeStatelessMessage(message: CollabStatelessMessage): string {
  return JSON.stringify(message);
}

/** Parses a stateless payload; anything that is not one of ours gives null. */
export function parseStatelessMessage(payload: string): CollabStatelessMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const message = value as Record<string, unknown>;
  if (message.type === 'title' && typeof message.title === 'string') {
    return { type: 'title', title: message.title };
  }
  if (message.type === 'comments') return { type: 'comments' };
  if (message.type === 'access' && COLLAB_ROLES.includes(message.role as CollabRole)) {
    return { type: 'access', role: message.role as CollabRole };
  }
  if (
    message.type === 'stored' &&
    typeof message.stateVector === 'string' &&
    typeof message.version === 'number' &&
    typeof message.updatedAt === 'string'
  ) {
    return {
      type: 'stored',
      stateVector: message.stateVector,
      version: message.version,
      updatedAt: message.updatedAt,
    };
  }
  return null;
}

export function encodeStateVector(doc: Y.Doc): string {
  return toBase64(Y.encodeStateVector(doc));
}

/**
 * True when a `stored` message covers every change this Y.Doc made itself, i.e. everything typed in
 * this editor up to now is in the database. The save indicator shows "Saved" exactly then (and while
 * there is nothing of ours to save), "Saving..." otherwise.
 */
export function isStoredFor(stored: { stateVector: string }, doc: Y.Doc): boolean {
  const ownClock = Y.getState(doc.store, doc.clientID);
  if (ownClock === 0) return true;
  const storedClock = Y.decodeStateVector(fromBase64(stored.stateVector)).get(doc.clientID) ?? 0;
  return storedClock >= ownClock;
}
