import type { Editor } from '@tiptap/core';
import { PenLine, SpellCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@client/components/ui/button';
import type { AiController } from '../useAiActions';

interface Position {
  top: number;
  left: number;
}

function selectionPosition(editor: Editor): Position | null {
  const { empty, to } = editor.state.selection;
  if (empty || !editor.isEditable || !editor.view.hasFocus()) return null;
  try {
    const coords = editor.view.coordsAtPos(to);
    return { top: coords.bottom + 8, left: coords.left };
  } catch {
    return null;
  }
}

/**
 * SPEC §2 selection-based AI helper: a small bar under the selection's end with Rewrite and Grammar (Improve is
 * on the floating selection toolbar above the selection, once). It never takes focus, so the selection stays.
 */
export function SelectionHelper({ controller }: { controller: AiController }) {
  const { editor, suggestion, rewriteOpen } = controller;
  const [position, setPosition] = useState<Position | null>(null);

  useEffect(() => {
    if (!editor) return;
    let frame = 0;
    const update = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setPosition(selectionPosition(editor)));
    };
    const hide = () => {
      cancelAnimationFrame(frame);
      setPosition(null);
    };
    editor.on('selectionUpdate', update);
    editor.on('focus', update);
    editor.on('blur', hide);
    window.addEventListener('scroll', update, true);
    return () => {
      cancelAnimationFrame(frame);
      editor.off('selectionUpdate', update);
      editor.off('focus', update);
      editor.off('blur', hide);
      window.removeEventListener('scroll', update, true);
    };
  }, [editor]);

  if (!editor || !position || rewriteOpen || suggestion?.status === 'streaming') return null;
  const keep = (event: React.MouseEvent) => event.preventDefault();
  return (
    <div
      role="toolbar"
      aria-label="AI helper for the selection"
      data-testid="ai-selection-helper"
      className="fixed z-30 flex items-center gap-0.5 rounded-lg border bg-popover p-0.5 text-popover-foreground shadow-lg"
      style={{ top: position.top, left: position.left }}
    >
      <Button
        type="button"
        variant="ghost"
        size="sm"
        onMouseDown={keep}
        onClick={() => controller.setRewriteOpen(true)}
      >
        <PenLine aria-hidden="true" /> Rewrite
      </Button>
      <Button type="button" variant="ghost" size="sm" onMouseDown={keep} onClick={controller.toolbar.grammar}>
        <SpellCheck aria-hidden="true" /> Grammar
      </Button>
    </div>
  );
}
