import type { Editor } from '@tiptap/core';
import { MessageSquare, X } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { Button } from '@client/components/ui/button';
import { errorMessage } from '@client/lib/api';
import { cn } from '@client/lib/utils';
import { isTypingTarget, KEYMAP, shortcutLabel } from '@shared/keymap';
import type { CommentUiStorage } from '../comment-ui';
import { useThreadActions, useThreads } from '../queries';
import type { ThreadFilter } from '../store';
import { revealThread, useCommentsState, useThreadRanges } from '../use-comments';
import { ThreadCard } from './ThreadCard';

const FILTERS: { value: ThreadFilter; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'resolved', label: 'Resolved' },
];

/**
 * The document's threads beside the text: open or resolved ones, in document order, each with its passage.
 * Choosing one scrolls the text to its passage and marks it there; a click on a highlight in the text chooses
 * its thread here.
 */
export function CommentsPanel({ editor, comments }: { editor: Editor; comments: CommentUiStorage }) {
  const { store, options } = comments;
  const api = options.api!;
  const state = useCommentsState(store);
  const threads = useThreads(api);
  const actions = useThreadActions(api);
  const ranges = useThreadRanges(editor);
  const list = useRef<HTMLOListElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const all = useMemo(() => threads.data ?? [], [threads.data]);
  const counts = useMemo(
    () => ({
      open: all.filter((thread) => thread.status === 'open').length,
      resolved: all.filter((thread) => thread.status === 'resolved').length,
    }),
    [all],
  );
  const shown = useMemo(() => all.filter((thread) => thread.status === state.filter), [all, state.filter]);

  const select = useCallback(
    (threadId: string) => {
      const next = store.get().activeThreadId === threadId ? null : threadId;
      store.set({ activeThreadId: next });
      if (next) revealThread(editor, next);
    },
    [store, editor],
  );

  // A thread chosen in the text comes into view here.
  useEffect(() => {
    if (!state.activeThreadId) return;
    const cards = list.current?.querySelectorAll('[data-thread-id]') ?? [];
    const card = [...cards].find((each) => each.getAttribute('data-thread-id') === state.activeThreadId);
    card?.scrollIntoView({ block: 'nearest' });
  }, [state.activeThreadId, shown]);

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const close = () => {
    store.set({ panelOpen: false, activeThreadId: null });
    editor.commands.focus();
  };

  return (
    <aside
      aria-label="Comments"
      data-testid="comments-panel"
      className="shrink-0 border-b bg-muted/30 max-md:order-first md:w-80 md:border-b-0 md:border-l"
      onKeyDown={(event) => {
        // Escape in a text box cancels what is written there, not the panel.
        if (event.key === 'Escape' && !isTypingTarget(event.target)) close();
      }}
    >
      <div className="flex flex-col p-3 md:sticky md:top-32 md:max-h-[calc(100dvh-8rem)]">
        <div className="mb-2 flex items-center justify-between gap-2">
          <h2
            ref={heading}
            tabIndex={-1}
            className="flex items-center gap-2 text-sm font-semibold outline-none"
          >
            <MessageSquare className="size-4" aria-hidden /> Comments
          </h2>
          <Button variant="ghost" size="icon-sm" onClick={close} aria-label="Close comments">
            <X />
          </Button>
        </div>
        <div role="group" aria-label="Show" className="mb-3 flex gap-1 rounded-md bg-muted p-0.5">
          {FILTERS.map(({ value, label }) => (
            <button
              key={value}
              type="button"
              aria-pressed={state.filter === value}
              onClick={() => store.set({ filter: value })}
              className={cn(
                'flex-1 rounded px-2 py-1 text-xs font-medium text-muted-foreground transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                state.filter === value && 'bg-background text-foreground shadow-xs',
              )}
            >
              {label} <span className="tabular-nums">({counts[value]})</span>
            </button>
          ))}
        </div>
        {threads.isPending ? (
          <p className="text-sm text-muted-foreground">Loading comments…</p>
        ) : threads.isError ? (
          <p className="text-sm text-destructive">{errorMessage(threads.error)}</p>
        ) : shown.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="comments-empty">
            {state.filter === 'resolved'
              ? 'No resolved comments.'
              : all.length === 0 && options.canComment
                ? `No comments yet. Select text and press ${shortcutLabel(KEYMAP.comment.keys)} to comment.`
                : 'No open comments.'}
          </p>
        ) : (
          <ol
            ref={list}
            className="-mx-1 max-h-[50dvh] space-y-2 overflow-y-auto px-1 pb-1 md:max-h-none md:flex-1"
          >
            {shown.map((thread) => (
              <ThreadCard
                key={thread.id}
                thread={thread}
                active={thread.id === state.activeThreadId}
                detached={!ranges.has(thread.id)}
                canComment={options.canComment}
                asksForName={options.asksForName}
                actions={actions}
                api={api}
                onSelect={select}
              />
            ))}
          </ol>
        )}
      </div>
    </aside>
  );
}
