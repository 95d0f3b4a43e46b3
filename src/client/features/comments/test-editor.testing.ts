import { Mark, mergeAttributes, type AnyExtension } from '@tiptap/core';
import { createEditorExtensions } from '@shared/editor/extensions';

// Stands in for the shared schema's comment mark until it is there (then this file goes).
const TestCommentMark = Mark.create({
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

/** The document schema's extensions, with a comment mark. */
export function schemaWithComments(): AnyExtension[] {
  const extensions = createEditorExtensions({ history: false });
  return extensions.some((extension) => extension.name === 'comment')
    ? extensions
    : [...extensions, TestCommentMark];
}
