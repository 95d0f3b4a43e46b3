import { DOMSerializer } from '@tiptap/pm/model';
import { useEffect, useRef } from 'react';
import { whenIdle } from '@client/lib/when-idle';
import { getEditorSchema } from '@shared/editor/extensions';
import type { RichTextDoc } from '@shared/schemas/richText';

/** Blocks rendered at once: more than a tall screen holds. The rest follows in idle time. */
const FIRST_BLOCKS = 60;
const BLOCKS_PER_IDLE_STEP = 200;
const IDLE_STEP_TIMEOUT_MS = 500;

/**
 * Read-only rendering of the REST copy of the document, shown until the live Y.Doc has state (from IndexedDB or
 * the server), so the page is never blank when the socket fails. It is not editable: typing into an empty Y.Doc
 * before the first sync would duplicate the content once the server's state arrives.
 *
 * The first screens are rendered at once and the rest in idle time: the live editor usually replaces this view
 * within a second, and rendering all of a novel first would delay that by as much again.
 */
export function ContentPreview({ content, className }: { content: RichTextDoc; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.replaceChildren();
    const schema = getEditorSchema();
    const serializer = DOMSerializer.fromSchema(schema);
    const blocks = content.content ?? [];
    let cancel: (() => void) | undefined;
    const render = (from: number, to: number) => {
      try {
        for (const block of blocks.slice(from, to))
          element.append(serializer.serializeNode(schema.nodeFromJSON(block)));
      } catch {
        element.replaceChildren();
        return;
      }
      if (to < blocks.length)
        cancel = whenIdle(() => render(to, to + BLOCKS_PER_IDLE_STEP), IDLE_STEP_TIMEOUT_MS);
    };
    render(0, FIRST_BLOCKS);
    return () => cancel?.();
  }, [content]);
  return <div ref={ref} className={className} data-testid="content-preview" aria-readonly="true" />;
}
