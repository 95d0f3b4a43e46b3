import { Mark, mergeAttributes } from '@tiptap/core';

// TEMPORARY until the shared schema's comment mark lands on main.
export const TestCommentMark = Mark.create({
  name: 'comment',
  excludes: '',
  inclusive: false,
  addAttributes: () => ({
    threadId: {
      default: null,
      parseHTML: (element: HTMLElement) => element.getAttribute('data-comment-thread'),
      renderHTML: (attributes: Record<string, unknown>) => ({ 'data-comment-thread': attributes.threadId }),
    },
  }),
  parseHTML: () => [{ tag: 'span[data-comment-thread]' }],
  renderHTML: ({ HTMLAttributes }) => [
    'span',
    mergeAttributes(HTMLAttributes, { class: 'comment-anchor' }),
    0,
  ],
});
