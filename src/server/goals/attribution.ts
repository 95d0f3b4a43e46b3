/**
 * Who wrote the words of a store (docs/goals.md): the editors of a document between two stores, in this
 * instance's memory. The net change in words between the stores goes to the one signed-in user who edited in
 * between; when several people (or a share-link visitor) edited, nobody is credited, so a collaborator's words
 * never count as anyone else's.
 */

export const SHARE_LINK_EDITOR = 'share-link';

export class EditorsSinceStore {
  private readonly editors = new Map<string, Set<string>>();

  /** `editor` is a user id, or SHARE_LINK_EDITOR. */
  record(documentId: string, editor: string): void {
    let set = this.editors.get(documentId);
    if (!set) {
      set = new Set();
      this.editors.set(documentId, set);
    }
    set.add(editor);
  }

  /** The editors since the last store, cleared (a store now holds their changes). */
  take(documentId: string): Set<string> {
    const set = this.editors.get(documentId) ?? new Set<string>();
    this.editors.delete(documentId);
    return set;
  }

  forget(documentId: string): void {
    this.editors.delete(documentId);
  }
}

/** The user credited with a store's words: the only editor, when that is a signed-in user; else nobody. */
export function creditedWriter(editors: ReadonlySet<string>): string | null {
  if (editors.size !== 1) return null;
  const [only] = editors;
  return only === SHARE_LINK_EDITOR ? null : (only ?? null);
}
