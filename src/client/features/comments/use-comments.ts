import type { Editor } from '@tiptap/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useSearch } from 'wouter';
import { toast } from '@client/components/ui/use-toast';
import { parseStatelessMessage } from '@shared/editor/collab-protocol';
import { selectionAnchor, threadRanges } from './anchor';
import { setHighlightState, type CommentUiStorage } from './comment-ui';
import { COMPOSER_GAP_PX, RANGES_DELAY_MS } from './constants';
import { refreshThreads, useThreads } from './queries';
import type { CommentsStore, CommentsUiState } from './store';

const NO_STATE: CommentsUiState = { panelOpen: false, filter: 'open', activeThreadId: null, composer: null };
const noSubscribe = () => () => {};
const noState = () => NO_STATE;

type StatelessListener = (data: { payload: string }) => void;

/** The document's collaboration provider, which passes on the server's stateless messages. */
export interface StatelessSource {
  on: (event: 'stateless', listener: StatelessListener) => unknown;
  off: (event: 'stateless', listener: StatelessListener) => unknown;
}

/** The page's comment controls for this editor, or null where the page has none. */
export function commentsOf(editor: Editor | null): CommentUiStorage | null {
  return editor?.storage.commentUi?.options.api ? editor.storage.commentUi : null;
}

export function useCommentsState(store: CommentsStore | undefined): CommentsUiState {
  return useSyncExternalStore(store?.subscribe ?? noSubscribe, store?.get ?? noState);
}

/** Opens the composer on the selection (the selection toolbar's Comment, Ctrl/⌘+Alt+M). */
export function openComposer(editor: Editor): void {
  const comments = commentsOf(editor);
  if (!comments?.options.canComment) return;
  const anchor = selectionAnchor(editor.state);
  if (!anchor) {
    toast({ title: 'Select the text to comment on', description: 'Then press Comment.' });
    return;
  }
  const end = editor.view.coordsAtPos(editor.state.selection.to);
  const start = editor.view.coordsAtPos(editor.state.selection.from);
  // In the page's coordinates, so the box stays under the passage as the page scrolls.
  comments.store.set({
    composer: {
      anchor,
      top: end.bottom + window.scrollY + COMPOSER_GAP_PX,
      left: Math.min(start.left, end.left) + window.scrollX,
    },
  });
}

/** Scrolls the text to a thread's passage (the panel's click on a thread). */
export function revealThread(editor: Editor, threadId: string): void {
  const range = threadRanges(editor.state.doc).get(threadId);
  if (!range) return;
  const { node } = editor.view.domAtPos(range.from + 1);
  const element = node instanceof Element ? node : node.parentElement;
  const smooth = !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  element?.scrollIntoView({ block: 'center', behavior: smooth ? 'smooth' : 'auto' });
}

/**
 * Keeps the text's highlights in step with the threads (resolved ones are not highlighted) and the active
 * thread, and refreshes the threads when the server says they changed.
 */
export function useCommentsSync(editor: Editor | null, provider: StatelessSource | null) {
  const comments = commentsOf(editor);
  const threads = useThreads(comments?.options.api ?? null);
  const state = useCommentsState(comments?.store);
  const queryClient = useQueryClient();
  const documentId = comments?.options.api?.documentId;

  useEffect(() => {
    if (!editor || !threads.data) return;
    const resolved = new Set(threads.data.filter((thread) => thread.status === 'resolved').map((t) => t.id));
    setHighlightState(editor.view, { resolved });
  }, [editor, threads.data]);

  useEffect(() => {
    if (editor) setHighlightState(editor.view, { active: state.activeThreadId });
  }, [editor, state.activeThreadId]);

  useEffect(() => {
    if (!provider || !documentId) return;
    const onStateless = ({ payload }: { payload: string }) => {
      if (parseStatelessMessage(payload)?.type === 'comments') void refreshThreads(queryClient, documentId);
    };
    provider.on('stateless', onStateless);
    return () => {
      provider.off('stateless', onStateless);
    };
  }, [provider, documentId, queryClient]);
  return threads;
}

/** Where each thread's passage is in the text now, followed a little behind typing. */
export function useThreadRanges(editor: Editor) {
  const [ranges, setRanges] = useState(() => threadRanges(editor.state.doc));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onUpdate = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setRanges(threadRanges(editor.state.doc)), RANGES_DELAY_MS);
    };
    editor.on('update', onUpdate);
    return () => {
      clearTimeout(timer);
      editor.off('update', onUpdate);
    };
  }, [editor]);
  return ranges;
}

/** The address's `?thread=` (a notification's link): the thread the page opens at. */
const THREAD_PARAM = 'thread';

/**
 * Opens the panel at the thread the address names, once its threads are known: the thread is chosen, the
 * filter follows its status, and the text scrolls to its passage.
 */
export function useThreadFromAddress(editor: Editor | null) {
  const comments = commentsOf(editor);
  const threads = useThreads(comments?.options.api ?? null);
  const wanted = new URLSearchParams(useSearch()).get(THREAD_PARAM);
  // Each address's thread once: choosing another thread afterwards is the reader's business.
  const handled = useRef<string | null>(null);
  useEffect(() => {
    if (!editor || !comments || !wanted || handled.current === wanted || !threads.data) return;
    handled.current = wanted;
    const thread = threads.data.find((each) => each.id === wanted);
    if (!thread) return;
    comments.store.set({ panelOpen: true, filter: thread.status, activeThreadId: thread.id });
    revealThread(editor, thread.id);
  }, [editor, comments, wanted, threads.data]);
}
