import type { Editor } from '@tiptap/core';
import { BubbleMenu } from '@tiptap/react/menus';
import type { ReactNode } from 'react';
import { commentsOf, type StatelessSource } from '../use-comments';
import {
  CommentsButton,
  CommentSelectionButton,
  CommentsOverlay,
  CommentsSidePanel,
} from './CommentControls';

/**
 * Comments around a document's text on the pages without the owner's editor (a member's, a share link
 * visitor's): a Comments button above the text, the panel beside it, and a Comment button over a selection.
 */
export function CommentsBesideText({
  editor,
  live,
  children,
}: {
  editor: Editor | null;
  live: StatelessSource | null;
  children: ReactNode;
}) {
  const comments = commentsOf(editor);
  if (!editor || !comments) return <>{children}</>;
  return (
    <>
      <div className="mb-3 flex justify-end">
        <CommentsButton editor={editor} placement="page" />
      </div>
      <div className="flex flex-col gap-6 md:flex-row md:items-start">
        <div className="min-w-0 flex-1">{children}</div>
        <CommentsSidePanel editor={editor} />
      </div>
      {comments.options.canComment && (
        <BubbleMenu
          editor={editor}
          // Also over text that cannot be edited (a commenter's), which never has the focus.
          shouldShow={({ state }) => !state.selection.empty}
          className="z-40 flex items-center rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
          data-testid="comment-selection-toolbar"
        >
          <CommentSelectionButton editor={editor} />
        </BubbleMenu>
      )}
      <CommentsOverlay editor={editor} live={live} />
    </>
  );
}
