import type { Editor } from '@tiptap/core';
import { ChevronDown, Layers, PenLine, SpellCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { AI_COMMANDS_INLINE_IN_HELPER } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { AI_COMMAND_ICON } from '@client/features/ai-commands';
import type { AiController } from '../useAiActions';

/** Where the bar sits: under the selection's end, or docked to an edge of a phone's screen. */
type Position = { top: number; left: number } | { dock: 'top'; top: number } | { dock: 'bottom' };

/**
 * On a phone (narrower than Tailwind's `sm`) the bar's buttons wrap into rows that would lie over the lines
 * around the selection, so it docks to the foot of the screen; when the selection itself is down there, to
 * the top, just under the header.
 */
const PHONE_QUERY = '(max-width: 639px)';
const GAP = 8;

function selectionPosition(editor: Editor): Position | null {
  const { empty, to } = editor.state.selection;
  if (empty || !editor.isEditable || !editor.view.hasFocus()) return null;
  try {
    const end = editor.view.coordsAtPos(to);
    if (!window.matchMedia(PHONE_QUERY).matches) return { top: end.bottom + GAP, left: end.left };
    const screenHeight = window.visualViewport?.height ?? window.innerHeight;
    if (end.bottom < screenHeight * 0.6) return { dock: 'bottom' };
    const header = document.querySelector('header')?.getBoundingClientRect();
    return { dock: 'top', top: Math.max(header?.bottom ?? 0, 0) + GAP };
  } catch {
    return null;
  }
}

function placement(position: Position): { className: string; style: React.CSSProperties } {
  if (!('dock' in position)) return { className: '', style: { top: position.top, left: position.left } };
  const className = 'inset-x-2 justify-center';
  return position.dock === 'bottom'
    ? { className, style: { bottom: `calc(${GAP}px + env(safe-area-inset-bottom))` } }
    : { className, style: { top: position.top } };
}

/**
 * The selection-based AI helper: a small bar under the selection's end (docked to the screen's edge on a
 * phone) with Rewrite, Grammar and
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
    // A selection made before the AI tools arrived gets its bar now, not at its next change.
    update();
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
  const { className, style } = placement(position);
  return (
    <div
      role="toolbar"
      aria-label="AI helper for the selection"
      data-testid="ai-selection-helper"
      data-docked={'dock' in position ? position.dock : undefined}
      className={cn(
        'fixed z-30 flex max-w-[min(40rem,calc(100vw-1rem))] flex-wrap items-center gap-0.5 rounded-lg border bg-popover p-0.5 text-popover-foreground shadow-lg',
        className,
      )}
      style={style}
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
