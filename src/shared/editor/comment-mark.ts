import { Mark } from '@tiptap/core';

/**
 * The anchor of a comment thread (docs/comments.md): the passage a thread is about carries a `comment` mark
 * with the thread's id. The thread itself (its comments, its status) lives on the server, never in the
 * document. The server applies the mark when a thread is created, so a commenter who may not edit can anchor
 * one; it is part of the document schema so every collaborator sees the same highlights.
 *
 * `excludes: ''` lets threads overlap (several comment marks with different thread ids on the same text);
 * `inclusive: false` keeps text typed at its edge out of it. It renders as
 * `<span data-comment-thread="<id>" class="comment-anchor">`, in the editor and in rendered HTML alike.
 */
export const COMMENT_MARK = 'comment';
export const COMMENT_THREAD_ATTRIBUTE = 'data-comment-thread';
export const COMMENT_ANCHOR_CLASS = 'comment-anchor';

export const CommentMark = Mark.create({
  name: COMMENT_MARK,
  inclusive: false,
  excludes: '',
  addAttributes() {
    return {
      threadId: {
        default: null,
        parseHTML: (element: HTMLElement) => element.getAttribute(COMMENT_THREAD_ATTRIBUTE),
        renderHTML: (attributes: Record<string, unknown>) =>
          typeof attributes.threadId === 'string' ? { [COMMENT_THREAD_ATTRIBUTE]: attributes.threadId } : {},
      },
    };
  },
  parseHTML: () => [{ tag: `span[${COMMENT_THREAD_ATTRIBUTE}]` }],
  renderHTML: ({ HTMLAttributes }) => ['span', { ...HTMLAttributes, class: COMMENT_ANCHOR_CLASS }, 0],
});
