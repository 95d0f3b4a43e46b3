import { DOMSerializer } from '@tiptap/pm/model';
import { useEffect, useRef } from 'react';
import { getEditorSchema } from '@shared/editor/extensions';
import type { RichTextDoc } from '@shared/schemas/richText';

/**
 * Read-only rendering of the REST copy of the document, shown until the live Y.Doc has state (from IndexedDB or
 * the server), so the page is never blank when the socket fails. It is not editable: typing into an empty Y.Doc
 * before the first sync would duplicate the content once the server's state arrives.
 */
export function ContentPreview({ content, className }: { content: RichTextDoc; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.replaceChildren();
    try {
      const schema = getEditorSchema();
      const node = schema.nodeFromJSON(content);
      element.append(DOMSerializer.fromSchema(schema).serializeFragment(node.content));
    } catch {
      element.textContent = '';
    }
  }, [content]);
  return <div ref={ref} className={className} data-testid="content-preview" aria-readonly="true" />;
}
