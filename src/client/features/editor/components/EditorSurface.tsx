import type { Editor } from '@tiptap/core';
import { EditorContent } from '@tiptap/react';
import type { RichTextDoc } from '@shared/schemas/richText';
import { ContentPreview } from './ContentPreview';

export const EDITOR_BODY_CLASS = 'qw-editor-body';

/**
 * The rich-text body: 'Loading editor...' until the editor exists, until the live document has state the stored
 * content read-only (when it was asked for: see EditorFrame) or 'Loading document...', then the live editor.
 */
export function EditorSurface({
  editor,
  ready,
  content,
}: {
  editor: Editor | null;
  ready: boolean;
  content: RichTextDoc | undefined;
}) {
  if (!editor) return <LoadingStatus>Loading editor...</LoadingStatus>;
  if (ready) return <EditorContent editor={editor} />;
  if (!content) return <LoadingStatus>Loading document...</LoadingStatus>;
  return <ContentPreview content={content} className={`${EDITOR_BODY_CLASS} tiptap opacity-80`} />;
}

function LoadingStatus({ children }: { children: string }) {
  return (
    <div className="py-8 text-sm text-muted-foreground" role="status">
      {children}
    </div>
  );
}
