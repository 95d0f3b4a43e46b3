import type { Editor } from '@tiptap/core';
import { MessageSquare, MessageSquarePlus } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { ariaKeyShortcuts, KEYMAP, matchesShortcut, shortcutLabel } from '@shared/keymap';
import { useThreads } from '../queries';
import '../comments.css';
import {
  commentsOf,
  openComposer,
  useCommentsState,
  useCommentsSync,
  useThreadFromAddress,
  type StatelessSource,
} from '../use-comments';

// Typing does not need them: loaded the first time a comment is written or the panel opened.
const CommentComposer = lazy(() => import('./CommentComposer').then((m) => ({ default: m.CommentComposer })));
const CommentsPanel = lazy(() => import('./CommentsPanel').then((m) => ({ default: m.CommentsPanel })));

/**
 * The Comments button, with the number of open threads: in the header, and on a phone (where the header's
 * second row is full) in the toolbar row with the other panels' toggles.
 */
export function CommentsButton({
  editor,
  placement = 'header',
}: {
  editor: Editor | null;
  placement?: 'header' | 'toolbar' | 'page';
}) {
  const comments = commentsOf(editor);
  const threads = useThreads(comments?.options.api ?? null);
  const state = useCommentsState(comments?.store);
  const open = threads.data?.filter((thread) => thread.status === 'open').length ?? 0;
  return (
    <Button
      variant={placement === 'toolbar' ? 'ghost' : 'outline'}
      size="sm"
      disabled={!comments}
      aria-pressed={state.panelOpen}
      title={`Comments (${shortcutLabel(KEYMAP.comment.keys)} comments on the selection)`}
      data-testid="comments-button"
      className={cn(
        'relative',
        placement === 'header' && 'max-sm:hidden',
        placement === 'toolbar' && 'h-8 px-2 sm:hidden',
      )}
      onClick={() =>
        comments?.store.set({
          panelOpen: !state.panelOpen,
          ...(state.panelOpen ? { activeThreadId: null } : {}),
        })
      }
    >
      <MessageSquare />
      <span className={placement === 'toolbar' ? 'sr-only' : undefined}>Comments</span>{' '}
      {open > 0 && (
        <span className="rounded-full bg-amber-500/20 px-1.5 text-xs tabular-nums text-amber-900 dark:text-amber-200">
          {open}
          <span className="sr-only">{' open'}</span>
        </span>
      )}
    </Button>
  );
}

/** The selection toolbar's Comment button. */
export function CommentSelectionButton({ editor }: { editor: Editor }) {
  if (!commentsOf(editor)?.options.canComment) return null;
  return (
    <button
      type="button"
      aria-label="Comment"
      aria-keyshortcuts={ariaKeyShortcuts(KEYMAP.comment.keys)}
      title={`${KEYMAP.comment.label} (${shortcutLabel(KEYMAP.comment.keys)})`}
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => openComposer(editor)}
      className="inline-flex h-8 shrink-0 items-center justify-center gap-1 rounded-md px-2 text-sm transition-colors hover:bg-accent hover:text-accent-foreground [&_svg]:size-4"
    >
      <MessageSquarePlus />
      <span className="text-xs font-medium">Comment</span>
    </button>
  );
}

/**
 * What the page's comments need once per editor: the highlights kept in step with the threads, the threads
 * refreshed when the server says so, Ctrl/⌘+Alt+M, and the composer.
 */
export function CommentsOverlay({ editor, live }: { editor: Editor | null; live: StatelessSource | null }) {
  const comments = commentsOf(editor);
  useCommentsSync(editor, live);
  useThreadFromAddress(editor);
  const state = useCommentsState(comments?.store);

  useEffect(() => {
    if (!editor || !comments?.options.canComment) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!matchesShortcut(event, KEYMAP.comment.keys)) return;
      event.preventDefault();
      openComposer(editor);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [editor, comments]);

  if (!editor || !comments || !state.composer) return null;
  return (
    <Suspense fallback={null}>
      <CommentComposer
        key={`${state.composer.anchor.from}-${state.composer.anchor.to}`}
        editor={editor}
        comments={comments}
        composer={state.composer}
      />
    </Suspense>
  );
}

/** The panel, while it is open. */
export function CommentsSidePanel({ editor }: { editor: Editor }) {
  const comments = commentsOf(editor);
  const state = useCommentsState(comments?.store);
  if (!comments || !state.panelOpen) return null;
  return (
    <Suspense fallback={null}>
      <CommentsPanel editor={editor} comments={comments} />
    </Suspense>
  );
}
