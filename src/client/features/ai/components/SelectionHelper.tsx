import type { Editor } from '@tiptap/core';
import { ChevronDown, Layers, PenLine, SpellCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { AI_COMMANDS_INLINE_IN_HELPER } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import { AI_COMMAND_ICON } from '@client/features/ai-commands/icons';
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
 * SPEC §2 selection-based AI helper: a small bar under the selection's end with Rewrite, Grammar and
 * Alternatives, then the writer's own commands (Improve is on the floating selection toolbar above the
 * selection, once). It never takes focus, so the selection stays; for the same reason the commands beyond
 * the first few unfold in the bar itself rather than in a menu.
 */
export function SelectionHelper({ controller }: { controller: AiController }) {
  const { editor, suggestion, rewriteOpen, alternativesAnchor, selectionCommands } = controller;
  const [position, setPosition] = useState<Position | null>(null);
  const [unfolded, setUnfolded] = useState(false);

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
      setUnfolded(false);
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

  if (!editor || !position || rewriteOpen || alternativesAnchor || suggestion?.status === 'streaming')
    return null;
  const keep = (event: React.MouseEvent) => event.preventDefault();
  const folded = selectionCommands.length > AI_COMMANDS_INLINE_IN_HELPER + 1 && !unfolded;
  const shownCommands = folded ? selectionCommands.slice(0, AI_COMMANDS_INLINE_IN_HELPER) : selectionCommands;
  return (
    <div
      role="toolbar"
      aria-label="AI helper for the selection"
      data-testid="ai-selection-helper"
      className="fixed z-30 flex max-w-[min(40rem,calc(100vw-1rem))] flex-wrap items-center gap-0.5 rounded-lg border bg-popover p-0.5 text-popover-foreground shadow-lg"
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
      <Button
        type="button"
        variant="ghost"
        size="sm"
        onMouseDown={keep}
        onClick={() => controller.setAlternativesOpen(true)}
      >
        <Layers aria-hidden="true" /> Alternatives
      </Button>
      {shownCommands.length > 0 && <span aria-hidden="true" className="mx-0.5 h-5 w-px bg-border" />}
      {shownCommands.map((command) => {
        const Icon = AI_COMMAND_ICON[command.icon];
        return (
          <Button
            key={command.id}
            type="button"
            variant="ghost"
            size="sm"
            title={command.instruction}
            onMouseDown={keep}
            onClick={() => controller.runCustomCommand(command.id)}
          >
            <Icon aria-hidden="true" /> {command.name}
          </Button>
        );
      })}
      {folded && (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          aria-expanded={false}
          onMouseDown={keep}
          onClick={() => setUnfolded(true)}
        >
          <ChevronDown aria-hidden="true" /> More
        </Button>
      )}
    </div>
  );
}
