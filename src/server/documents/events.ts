import type { JSONContent } from '@tiptap/core';

/**
 * The documents event stream: what happened to a document, published by the one writer (writer.ts), the
 * collaboration layer (live edits, a live document left) and sharing (access changed). Other areas subscribe
 * (`app.deps.documentEvents.on(...)`) instead of being called by the code that made the change: version history,
 * collaboration (title broadcast, access re-check) and, later, comments or webhooks.
 *
 * In-process only: one server instance's changes reach that instance's subscribers. With Redis scale-out the
 * Y.Docs are already synced between instances and each instance re-checks its own connections.
 */

/** Where a change of content or title came from. */
export type WriteSource = 'rest' | 'mcp' | 'socket' | 'import' | 'restore' | 'ai' | 'template' | 'comment';

/** Who made a live edit: a signed-in user, or a visitor through a share link. */
type LiveEditor = { userId: string } | 'share-link';

export type DocumentEvent =
  | { type: 'created'; documentId: string; userId: string; source: WriteSource }
  /**
   * The writer is about to replace the content of the user's document; the database (and the live document)
   * still hold the old content. Awaited; a listener that throws refuses the write. Version history keeps the
   * state being replaced here.
   */
  | { type: 'content.replacing'; documentId: string; userId: string; source: WriteSource }
  /**
   * New content is stored. `userId` is the user whose request made the change (absent for the collaboration
   * socket, whose editors are announced by `live.edited`). `live` is the body as stored when the change went
   * through the live document (a store of the collaboration server), absent for a document nobody had open.
   */
  | {
      type: 'content.changed';
      documentId: string;
      source: WriteSource;
      version: number;
      userId?: string | undefined;
      live?: JSONContent | undefined;
    }
  /** A connection changed the live document (not stored yet: the store follows with `content.changed`). */
  | { type: 'live.edited'; documentId: string; editor: LiveEditor }
  | { type: 'title.changed'; documentId: string; userId: string; title: string; version: number }
  /**
   * The document's comment threads changed: one created, replied to, edited, resolved or deleted. `created` says
   * a comment was added: the first of a new thread, or a reply.
   */
  | { type: 'comments.changed'; documentId: string; created?: 'thread' | 'reply' | undefined }
  /** Who may open the document changed (share settings, the share link reset). */
  | { type: 'access.changed'; documentId: string }
  /** Moved to the trash: from now on it is missing to every way in (open connections must end). */
  | { type: 'trashed'; documentId: string; userId: string }
  /** Brought back from the trash, as it was. */
  | { type: 'restored'; documentId: string; userId: string }
  /** Deleted for good (from the trash, by its owner or by the purge), with everything kept with it. */
  | { type: 'deleted'; documentId: string; userId: string }
  /** The last editor left a live document whose content changed while it was live; everything is stored. */
  | { type: 'unloaded'; documentId: string };

export type DocumentEventType = DocumentEvent['type'];
/** Every type of event, for subscribers that count them all (the server's metrics). */
export const DOCUMENT_EVENT_TYPES = [
  'created',
  'content.replacing',
  'content.changed',
  'live.edited',
  'title.changed',
  'comments.changed',
  'access.changed',
  'trashed',
  'restored',
  'deleted',
  'unloaded',
] as const satisfies readonly DocumentEventType[];
// A new type of event must be added above; this fails to compile until it is.
const everyType: Record<Exclude<DocumentEventType, (typeof DOCUMENT_EVENT_TYPES)[number]>, never> = {};
void everyType;
type DocumentEventOf<T extends DocumentEventType> = Extract<DocumentEvent, { type: T }>;
type Listener<T extends DocumentEventType> = (event: DocumentEventOf<T>) => void | Promise<void>;

export class DocumentEvents {
  private readonly listeners = new Map<
    DocumentEventType,
    ((event: DocumentEvent) => void | Promise<void>)[]
  >();

  /** Subscribes to one type of event; returns the unsubscribe function. */
  on<T extends DocumentEventType>(type: T, listener: Listener<T>): () => void {
    const list = this.listeners.get(type) ?? [];
    // Only events of `type` reach it (publish looks up by the event's type).
    const entry = listener as unknown as (event: DocumentEvent) => void | Promise<void>;
    list.push(entry);
    this.listeners.set(type, list);
    return () => {
      const index = list.indexOf(entry);
      if (index >= 0) list.splice(index, 1);
    };
  }

  /**
   * Runs the event's listeners one after another, in subscription order, and resolves when all have finished.
   * The first that throws stops the others and rejects: the publisher decides whether that fails its request
   * (a write refused by `content.replacing`) or is only logged (a store already made).
   */
  async publish(event: DocumentEvent): Promise<void> {
    const list = this.listeners.get(event.type);
    if (!list) return;
    for (const listener of [...list]) await listener(event);
  }
}
