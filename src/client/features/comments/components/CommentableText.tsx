import type { AnyExtension } from '@tiptap/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { useEffect } from 'react';
import { createRenderExtensions } from '@shared/editor/extensions';
import type { RichTextDoc } from '@shared/schemas/richText';
import type { CommentsApi } from '../api';
import { CommentUi } from '../comment-ui';
import { THREADS_POLL_MS } from '../constants';
import { useThreads } from '../queries';
import { CommentsBesideText } from './CommentsBesideText';

/**
 * The saved copy of a document as text one can select and comment on, for someone who reads but may not
 * open the live document (a commenter, a "Can comment" link's visitor). Nothing here changes the text: the
 * server puts a new thread's mark into the document, and the page brings the saved copy again.
 */
export function CommentableText({
  content,
  api,
  canComment,
  asksForName,
  extensions = [],
  testId,
  onThreadCreated,
}: {
  content: unknown;
  api: CommentsApi;
  canComment: boolean;
  asksForName: boolean;
  /** The page's own, e.g. images shown with its access. */
  extensions?: AnyExtension[];
  testId: string;
  onThreadCreated?: () => void;
}) {
  const editor = useEditor(
    {
      extensions: [
        // With footnote numbers as the saved copy has them (the text here never changes them).
        ...createRenderExtensions(content as RichTextDoc),
        ...extensions,
        CommentUi.configure({ api, canComment, asksForName, onThreadCreated }),
      ],
      content: content as Record<string, unknown>,
      editable: false,
      editorProps: {
        attributes: { class: 'qw-document outline-none', 'aria-label': 'Document', 'data-testid': testId },
      },
    },
    [api],
  );
  // Polls the threads; the panel and the highlights share the query.
  useThreads(api, THREADS_POLL_MS);

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.commands.setContent(content as Record<string, unknown>, { emitUpdate: true });
  }, [editor, content]);

  return (
    <CommentsBesideText editor={editor} live={null}>
      <EditorContent editor={editor} />
    </CommentsBesideText>
  );
}
