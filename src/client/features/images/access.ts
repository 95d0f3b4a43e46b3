import { fetchImageAccess, type ImageAuth } from './api';

/**
 * The access tokens <img> addresses carry (docs/images.md), one per document the page shows images of: asked
 * for once, shared by every image of the document, and renewed a few minutes before it ends. The server
 * hands out the same token for a whole window, so renewing does not change the address until the window
 * turns, and the browser's cache keeps the image.
 */

const RENEW_BEFORE_MS = 5 * 60_000;
const RETRY_MS = 30_000;

interface Entry {
  token: string | null;
  param: string;
  pending: Promise<void> | null;
  timer: ReturnType<typeof setTimeout> | undefined;
  listeners: Set<() => void>;
}

export class ImageAccessTokens {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly auth: ImageAuth) {}

  /** The image's address as an <img> can load it, or null while the token is on its way. */
  displaySrc(documentId: string, src: string): string | null {
    const entry = this.entry(documentId);
    if (!entry.token) return null;
    return `${src}?${entry.param}=${encodeURIComponent(entry.token)}`;
  }

  /** Calls `listener` whenever the document's token changes; returns the unsubscribe function. */
  subscribe(documentId: string, listener: () => void): () => void {
    const entry = this.entry(documentId);
    entry.listeners.add(listener);
    return () => entry.listeners.delete(listener);
  }

  /** Stops renewing (the editor is gone). */
  dispose(): void {
    for (const entry of this.entries.values()) clearTimeout(entry.timer);
    this.entries.clear();
  }

  private entry(documentId: string): Entry {
    let entry = this.entries.get(documentId);
    if (!entry) {
      entry = { token: null, param: 'access', pending: null, timer: undefined, listeners: new Set() };
      this.entries.set(documentId, entry);
      this.renew(documentId, entry);
    }
    return entry;
  }

  private renew(documentId: string, entry: Entry): void {
    if (entry.pending) return;
    entry.pending = fetchImageAccess(documentId, this.auth)
      .then((grant) => {
        const changed = grant.token !== entry.token;
        entry.token = grant.token;
        entry.param = grant.param;
        const wait = Math.max(RETRY_MS, Date.parse(grant.expiresAt) - Date.now() - RENEW_BEFORE_MS);
        entry.timer = setTimeout(() => this.renew(documentId, entry), wait);
        if (changed) for (const listener of entry.listeners) listener();
      })
      .catch(() => {
        // A document the page may not read (an image copied from elsewhere) stays without a token.
        entry.timer = setTimeout(() => this.renew(documentId, entry), RETRY_MS * 10);
      })
      .finally(() => {
        entry.pending = null;
      });
  }
}
