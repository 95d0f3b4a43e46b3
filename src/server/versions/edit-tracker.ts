/**
 * Who changed each document since its last version, in this instance's memory. Authors are keys: `user:<id>`,
 * `ai` (an AI answer applied after an `ai` checkpoint) or `share-link` (a visitor editing through a share
 * link). A document with pending authors has changes no version holds yet. Lost on restart, which only costs
 * the author list of the next version, never content (the content is in the documents table).
 */
export class EditTracker {
  private readonly pending = new Map<string, Set<string>>();

  record(documentId: string, authorKey: string): void {
    let authors = this.pending.get(documentId);
    if (!authors) {
      authors = new Set();
      this.pending.set(documentId, authors);
    }
    authors.add(authorKey);
  }

  hasChanges(documentId: string): boolean {
    return (this.pending.get(documentId)?.size ?? 0) > 0;
  }

  /** The pending authors, in the order they first edited; clears them (a version now holds the changes). */
  take(documentId: string): string[] {
    const authors = this.pending.get(documentId);
    this.pending.delete(documentId);
    return authors ? [...authors] : [];
  }

  /** Puts authors back when the version that took them could not be written. */
  giveBack(documentId: string, authorKeys: readonly string[]): void {
    for (const key of authorKeys) this.record(documentId, key);
  }

  forget(documentId: string): void {
    this.pending.delete(documentId);
  }
}

export const userAuthorKey = (userId: string) => `user:${userId}`;
export const AI_AUTHOR_KEY = 'ai';
export const SHARE_LINK_AUTHOR_KEY = 'share-link';
