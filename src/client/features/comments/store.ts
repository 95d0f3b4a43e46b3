import type { CommentAnchor } from '@shared/schemas/comments';

export type ThreadFilter = 'open' | 'resolved';

/** What the page's comment controls share: the panel, the thread in focus, the composer. */
export interface CommentsUiState {
  panelOpen: boolean;
  filter: ThreadFilter;
  /** The thread highlighted in the text and selected in the panel. */
  activeThreadId: string | null;
  /** Set while the composer is open: the passage it comments on and where to show it (page pixels). */
  composer: { anchor: CommentAnchor; top: number; left: number } | null;
}

const INITIAL: CommentsUiState = { panelOpen: false, filter: 'open', activeThreadId: null, composer: null };

/**
 * One per editor (held in the comment extension's storage): the header button, the composer, the panel and
 * the text's highlights are separate parts of the page that all read and change this.
 */
export class CommentsStore {
  private state: CommentsUiState = INITIAL;
  private readonly listeners = new Set<() => void>();

  readonly get = (): CommentsUiState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  set(change: Partial<CommentsUiState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }
}
