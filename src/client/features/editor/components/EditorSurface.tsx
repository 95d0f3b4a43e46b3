import type { Editor } from '@tiptap/core';
import { EditorContent } from '@tiptap/react';
import type { RichTextDoc } from '@shared/schemas/richText';
import { ContentPreview } from './ContentPreview';

export const EDITOR_BODY_CLASS = 'qw-editor-body';

/**
 * The rich-text body: 'Loading editor...' until the editor exists, the read-only REST copy until the live
 * document has state, then the live editor.
 */
export function EditorSurface({
  editor,
  ready,
  content,
}: {
  editor: Editor | null;
  ready: boolean;
  content: RichTextDoc;
}) {
  if (!editor) {
    return (
      <div className="py-8 text-sm text-muted-foreground" role="status">
        Loading editor...
      </div>
    );
  }
  if (!ready)
    return <ContentPreview content={content} className={`${EDITOR_BODY_CLASS} tiptap opacity-80`} />;
  return <EditorContent editor={editor} />;
}
