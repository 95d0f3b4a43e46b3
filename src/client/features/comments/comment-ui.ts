import { Extension } from '@tiptap/core';
import { Fragment, Slice, type Node as PmNode } from '@tiptap/pm/model';
import { Plugin, PluginKey, type Transaction } from '@tiptap/pm/state';
import { Mapping } from '@tiptap/pm/transform';
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view';
import { changedRange } from '@client/features/editor';
import { COMMENT_MARK, commentThreadIds } from './anchor';
import type { CommentsApi } from './api';
import { CommentsStore } from './store';

/**
 * The browser's side of comment marks (the mark itself is in the shared schema; the server adds it): the
 * highlight of open threads, stronger on the active one; a click on a highlight selects its thread; and a copy
 * pasted while its original is still in the document does not carry the thread's mark, so a thread keeps one
 * passage (a cut and paste moves it).
 */

export interface CommentUiOptions {
  /** Null: no comments on this page. */
  api: CommentsApi | null;
  /** May start threads and reply (a viewer reads them). */
  canComment: boolean;
  /** A share-link visitor names themself before their first comment. */
  asksForName: boolean;
  /**
   * A page that shows the saved copy brings it again after a new thread, whose mark the server added (a page
   * on the live document gets the mark through the socket).
   */
  onThreadCreated?: () => void;
}

export interface CommentUiStorage {
  store: CommentsStore;
  options: CommentUiOptions;
}

declare module '@tiptap/core' {
  interface Storage {
    commentUi?: CommentUiStorage;
  }
}

interface HighlightState {
  active: string | null;
  resolved: ReadonlySet<string>;
  decorations: DecorationSet;
}

interface HighlightMeta {
  active?: string | null;
  resolved?: ReadonlySet<string>;
}

const commentHighlightKey = new PluginKey<HighlightState>('commentHighlight');

const HIGHLIGHT_CLASS = 'qw-comment';
const ACTIVE_CLASS = 'qw-comment-active';

function highlights(
  doc: PmNode,
  from: number,
  to: number,
  active: string | null,
  resolved: ReadonlySet<string>,
): Decoration[] {
  const found: Decoration[] = [];
  doc.nodesBetween(from, to, (node, pos) => {
    if (!node.isText) return true;
    const open = commentThreadIds(node).filter((id) => !resolved.has(id));
    if (open.length === 0) return false;
    const isActive = active !== null && open.includes(active);
    found.push(
      Decoration.inline(pos, pos + node.nodeSize, {
        class: isActive ? `${HIGHLIGHT_CLASS} ${ACTIVE_CLASS}` : HIGHLIGHT_CLASS,
        'aria-description': open.length === 1 ? 'Commented' : `Commented (${open.length} threads)`,
        'data-comment-threads': open.join(' '),
      }),
    );
    return false;
  });
  return found;
}

function allHighlights(doc: PmNode, active: string | null, resolved: ReadonlySet<string>): DecorationSet {
  return DecorationSet.create(doc, highlights(doc, 0, doc.content.size, active, resolved));
}

/** The highlights after a change: mapped, and found again only in the textblocks the change touched. */
function updatedHighlights(tr: Transaction, state: HighlightState): DecorationSet {
  // From the documents, not the steps: y-prosemirror applies a remote change as a replacement of everything.
  const range = changedRange(tr.before, tr.doc);
  if (!range) return state.decorations;
  const { doc } = tr;
  const $from = doc.resolve(Math.min(range.from, doc.content.size));
  const $to = doc.resolve(Math.min(range.to, doc.content.size));
  const from = $from.parent.isTextblock ? $from.start() : $from.pos;
  const to = $to.parent.isTextblock ? $to.end() : $to.pos;
  const mapped = state.decorations.map(new Mapping([range.map]), doc);
  return mapped
    .remove(mapped.find(from, to))
    .add(doc, highlights(doc, from, to, state.active, state.resolved));
}

/** The thread ids present in the document. */
function threadsIn(doc: PmNode): Set<string> {
  const ids = new Set<string>();
  doc.descendants((node) => {
    if (!node.isText) return true;
    for (const id of commentThreadIds(node)) ids.add(id);
    return false;
  });
  return ids;
}

function withoutThreads(fragment: Fragment, drop: ReadonlySet<string>): Fragment {
  const nodes: PmNode[] = [];
  fragment.forEach((node) => {
    if (node.isText) {
      nodes.push(
        node.mark(
          node.marks.filter(
            (mark) => mark.type.name !== COMMENT_MARK || !drop.has(mark.attrs.threadId as string),
          ),
        ),
      );
    } else {
      nodes.push(node.copy(withoutThreads(node.content, drop)));
    }
  });
  return Fragment.from(nodes);
}

/**
 * The pasted slice without the marks of threads whose passage is still in the document: a copy would give
 * one thread two passages. A cut's original is gone by the paste, and an in-editor drag moves the text, so
 * those keep their threads.
 */
function withoutCopiedThreads(slice: Slice, view: EditorView): Slice {
  if (view.dragging?.move) return slice;
  const pasted = new Set<string>();
  slice.content.descendants((node) => {
    for (const id of commentThreadIds(node)) pasted.add(id);
    return true;
  });
  if (pasted.size === 0) return slice;
  const present = threadsIn(view.state.doc);
  const copies = new Set([...pasted].filter((id) => present.has(id)));
  if (copies.size === 0) return slice;
  return new Slice(withoutThreads(slice.content, copies), slice.openStart, slice.openEnd);
}

function highlightPlugin(store: CommentsStore): Plugin<HighlightState> {
  return new Plugin<HighlightState>({
    key: commentHighlightKey,
    state: {
      init: (_, { doc }) => ({
        active: null,
        resolved: new Set(),
        decorations: allHighlights(doc, null, new Set()),
      }),
      apply: (tr, state) => {
        const meta = tr.getMeta(commentHighlightKey) as HighlightMeta | undefined;
        if (meta) {
          const active = meta.active === undefined ? state.active : meta.active;
          const resolved = meta.resolved ?? state.resolved;
          return { active, resolved, decorations: allHighlights(tr.doc, active, resolved) };
        }
        if (!tr.docChanged) return state;
        return { ...state, decorations: updatedHighlights(tr, state) };
      },
    },
    props: {
      decorations: (state) => commentHighlightKey.getState(state)?.decorations,
      transformPasted: withoutCopiedThreads,
      handleDOMEvents: {
        click: (_view, event) => {
          const target =
            event.target instanceof Element ? event.target.closest('[data-comment-threads]') : null;
          const ids = target?.getAttribute('data-comment-threads')?.split(' ').filter(Boolean) ?? [];
          if (ids.length === 0) return false;
          const { activeThreadId } = store.get();
          // A second click on overlapping threads goes on to the next one.
          const at = activeThreadId ? ids.indexOf(activeThreadId) : -1;
          store.set({ panelOpen: true, filter: 'open', activeThreadId: ids[(at + 1) % ids.length] ?? null });
          return false;
        },
      },
    },
  });
}

/** Tells the highlights which thread is active and which are resolved. */
export function setHighlightState(view: EditorView, meta: HighlightMeta): void {
  const current = commentHighlightKey.getState(view.state);
  if (!current) return;
  if (meta.active !== undefined && meta.active === current.active && !meta.resolved) return;
  view.dispatch(view.state.tr.setMeta(commentHighlightKey, meta).setMeta('addToHistory', false));
}

export const CommentUi = Extension.create<CommentUiOptions, CommentUiStorage>({
  name: 'commentUi',
  addOptions: () => ({ api: null, canComment: false, asksForName: false }),
  addStorage() {
    return { store: new CommentsStore(), options: this.options };
  },
  addProseMirrorPlugins() {
    return [highlightPlugin(this.storage.store)];
  },
});
