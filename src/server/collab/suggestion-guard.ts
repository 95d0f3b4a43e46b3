import type { beforeHandleMessagePayload, Extension } from '@hocuspocus/server';
import * as decoding from 'lib0/decoding';
import * as Y from 'yjs';
import { COLLAB_CLOSE, COLLAB_FRAGMENT } from '../../shared/editor/collab-protocol';
import { can } from '../documents';
import type { CollabContext } from './authentication-extension';

/** Hocuspocus' message types that carry y-protocols sync messages (the varUint after the document name). */
const SYNC_MESSAGE_TYPES = new Set([0 /* Sync */, 4 /* SyncReply */]);
/** y-protocols sync message types that carry a Yjs update. */
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;

/**
 * The Yjs update a socket message carries (sync step 2 or update), or null when it carries none. A
 * message that cannot be read at all is returned as an empty update for the caller to refuse.
 */
function yjsUpdateOf(message: Uint8Array): Uint8Array | null {
  try {
    const decoder = decoding.createDecoder(message);
    decoding.readVarString(decoder);
    if (!SYNC_MESSAGE_TYPES.has(decoding.readVarUint(decoder))) return null;
    const syncType = decoding.readVarUint(decoder);
    if (syncType !== SYNC_STEP_2 && syncType !== SYNC_UPDATE) return null;
    return decoding.readVarUint8Array(decoder);
  } catch {
    return new Uint8Array();
  }
}

/**
 * The document's text with every pending suggestion rejected: all text except what carries an
 * `insertion` mark (y-prosemirror keeps a mark as a formatting attribute named after it). Text marked
 * `deletion` still counts: it is only proposed for removal.
 */
export function textAsItStood(doc: Y.Doc): string {
  const parts: string[] = [];
  const walk = (parent: Y.XmlFragment | Y.XmlElement) => {
    for (const child of parent.toArray()) {
      if (child instanceof Y.XmlText) {
        for (const op of child.toDelta() as { insert: unknown; attributes?: Record<string, unknown> }[]) {
          if (typeof op.insert === 'string' && !op.attributes?.insertion) parts.push(op.insert);
        }
      } else if (child instanceof Y.XmlElement) {
        walk(child);
      }
    }
  };
  walk(doc.getXmlFragment(COLLAB_FRAGMENT));
  return parts.join('');
}

/**
 * Whether applying `update` to `document` leaves its text as it stood unchanged: it only adds or removes
 * insertions, marks text as deleted (or unmarks it), or changes structure and formatting. The update is
 * tried on a copy; the live document is not touched. An update that cannot be applied does not keep it.
 */
export function keepsTextAsItStood(document: Y.Doc, update: Uint8Array): boolean {
  if (update.byteLength === 0) return false;
  const probe = new Y.Doc();
  try {
    Y.applyUpdate(probe, Y.encodeStateAsUpdate(document));
    const before = textAsItStood(probe);
    Y.applyUpdate(probe, update);
    return textAsItStood(probe) === before;
  } catch {
    return false;
  } finally {
    probe.destroy();
  }
}

/**
 * "Can suggest" share links: a suggester's connection may change the document only through tracked
 * suggestions. Every update it sends is tried on a copy of the document first; one that would change the
 * text as it stood (typing or deleting without suggestion marks, accepting someone's suggestion) is refused
 * before it is applied and the connection is closed with `suggestions-only`. Owners and editors are not
 * checked. Structure and formatting changes are not tracked and pass (see docs/suggestions.md).
 */
export class SuggestionGuardExtension implements Extension {
  extensionName = 'QuillwrightSuggestionGuard';
  // After authentication (200) and the size limit (150), before persistence sees anything.
  priority = 140;

  async beforeHandleMessage({ context, document, update }: beforeHandleMessagePayload<CollabContext>) {
    // Only a role that may suggest but not write (a suggester) is checked.
    const access = context.auth?.access;
    if (!can(access, 'suggest') || can(access, 'write')) return;
    const yjsUpdate = yjsUpdateOf(update);
    if (yjsUpdate === null || keepsTextAsItStood(document, yjsUpdate)) return;
    // A plain object: Hocuspocus closes the connection with this code and reason.
    throw { code: COLLAB_CLOSE.suggestionsOnly.code, reason: COLLAB_CLOSE.suggestionsOnly.reason };
  }
}
