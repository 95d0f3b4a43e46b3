import type { Editor } from '@tiptap/core';
import { ChevronRight, GripVertical, ListTree, X } from 'lucide-react';
import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { Button } from '@client/components/ui/button';
import { asOneUndoStep } from '@client/features/editor';
import { cn } from '@client/lib/utils';
import { KEYMAP, ariaKeyShortcuts, matchesShortcut, shortcutLabel } from '@shared/keymap';
import { dropTarget, keyboardTarget, moveSection, type Placement } from './move-section';
import { isHiddenByCollapse, sectionAt, type OutlineSection } from './outline';
import { useOutline } from './use-outline';
import './outline.css';

export interface OutlinePanelProps {
  editor: Editor;
  onClose: () => void;
}

/** The drag's data type: only a row of this outline is accepted as a drop. */
const DRAG_TYPE = 'application/x-quillwright-outline-section';

const words = (count: number) => `${count.toLocaleString()} ${count === 1 ? 'word' : 'words'}`;

/**
 * The Outline: the document's headings as a tree with each section's words, the section the writer is in
 * highlighted. A click or Enter jumps to a heading; a section is moved by dragging its row or with Alt+↑/↓.
 */
export function OutlinePanel({ editor, onClose }: OutlinePanelProps) {
  const state = useOutline(editor);
  const { outline, current, collapsed, toggleCollapsed, canMove, suggesting } = state;
  const { sections } = outline;
  const visible = sections.filter((section) => !isHiddenByCollapse(sections, section, collapsed));
  // The row that takes Tab (roving tabindex): the focused one, else the current section, else the first.
  const [focusedPos, setFocusedPos] = useState<number | null>(null);
  const focused =
    visible.find((section) => section.pos === focusedPos) ??
    (current && visible.find((section) => section.pos === current.pos)) ??
    visible[0];
  const rows = useRef(new Map<number, HTMLLIElement>());
  const focusAfterRender = useRef<number | null>(null);
  const [dragging, setDragging] = useState<OutlineSection | null>(null);
  const [dropHint, setDropHint] = useState<{ pos: number; placement: Placement } | null>(null);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (focusAfterRender.current === null) return;
    const row = rows.current.get(focusAfterRender.current);
    focusAfterRender.current = null;
    row?.focus();
  });

  // The highlighted row stays in sight as the writer scrolls through a long book.
  useEffect(() => {
    if (current) rows.current.get(current.pos)?.scrollIntoView({ block: 'nearest' });
  }, [current]);

  const focusRow = (section: OutlineSection | undefined) => {
    if (!section) return;
    setFocusedPos(section.pos);
    rows.current.get(section.pos)?.focus();
  };

  const move = (section: OutlineSection, target: number | null, how: string): boolean => {
    if (!canMove || target === null) return false;
    const tr = moveSection(editor.state, section, target);
    if (!tr) return false;
    asOneUndoStep(editor, () => {
      editor.view.dispatch(tr);
      return true;
    });
    const next = state.refresh();
    const moved = sectionAt(next.sections, editor.state.selection.from);
    if (moved) {
      setFocusedPos(moved.pos);
      focusAfterRender.current = moved.pos;
    }
    setAnnouncement(`Moved “${section.text || 'Untitled section'}” ${how}.`);
    return true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (!focused) return;
    const at = visible.indexOf(focused);
    const native = event.nativeEvent;
    if (matchesShortcut(native, KEYMAP.moveSectionUp.keys)) {
      event.preventDefault();
      move(focused, keyboardTarget(sections, focused, 'up'), 'up');
      return;
    }
    if (matchesShortcut(native, KEYMAP.moveSectionDown.keys)) {
      event.preventDefault();
      move(focused, keyboardTarget(sections, focused, 'down'), 'down');
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const expanded = focused.hasChildren && !collapsed.has(focused.pos);
    switch (event.key) {
      case 'ArrowDown':
        focusRow(visible[at + 1]);
        break;
      case 'ArrowUp':
        focusRow(visible[at - 1]);
        break;
      case 'Home':
        focusRow(visible[0]);
        break;
      case 'End':
        focusRow(visible.at(-1));
        break;
      case 'ArrowRight':
        if (focused.hasChildren && !expanded) toggleCollapsed(focused);
        else if (expanded) focusRow(visible[at + 1]);
        break;
      case 'ArrowLeft':
        if (expanded) toggleCollapsed(focused);
        else if (focused.parent !== null) focusRow(sections[focused.parent]);
        break;
      case 'Enter':
        state.jumpTo(focused);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const placementOf = (event: DragEvent<HTMLElement>): Placement => {
    const box = event.currentTarget.getBoundingClientRect();
    return event.clientY < box.top + box.height / 2 ? 'before' : 'after';
  };

  const moveHint = canMove
    ? `Drag a heading, or press ${shortcutLabel(KEYMAP.moveSectionUp.keys)} / ${shortcutLabel(KEYMAP.moveSectionDown.keys)}, to move its section.`
    : suggesting
      ? 'Moving sections is off in Suggesting mode: a move cannot be proposed as a suggestion.'
      : null;

  return (
    <aside
      id="document-outline"
      aria-label="Outline"
      className="shrink-0 border-b bg-muted/30 max-md:order-first md:w-72 md:border-b-0 md:border-l"
      data-testid="outline-panel"
    >
      <div className="flex flex-col p-4 md:sticky md:top-32 md:max-h-[calc(100dvh-8rem)]">
        <div className="mb-2 flex items-center justify-between gap-2">
          <h2 className="flex items-center gap-2 text-sm font-semibold">
            <ListTree className="size-4" aria-hidden /> Outline
          </h2>
          <Button variant="ghost" size="icon-sm" aria-label="Close outline" onClick={onClose}>
            <X />
          </Button>
        </div>
        <p className="mb-3 text-xs text-muted-foreground tabular-nums" data-testid="outline-total">
          {words(outline.totalWords)} in total
        </p>
        {sections.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No headings yet. Headings ({shortcutLabel(KEYMAP.heading1.keys)} to{' '}
            {shortcutLabel(KEYMAP.heading3.keys)}) become the outline of the document.
          </p>
        ) : (
          <ul
            role="tree"
            aria-label="Document outline"
            className="-mx-1 max-h-72 overflow-y-auto md:max-h-none md:flex-1"
            onKeyDown={onKeyDown}
          >
            {visible.map((section) => {
              const expanded = section.hasChildren ? !collapsed.has(section.pos) : undefined;
              const isCurrent = current?.pos === section.pos;
              const hint = dropHint?.pos === section.pos ? dropHint.placement : null;
              return (
                <li
                  key={`${section.index}:${section.pos}`}
                  ref={(row) => {
                    if (row) rows.current.set(section.pos, row);
                    else rows.current.delete(section.pos);
                  }}
                  role="treeitem"
                  aria-level={section.depth + 1}
                  aria-expanded={expanded}
                  aria-selected={isCurrent}
                  aria-current={isCurrent ? 'location' : undefined}
                  aria-keyshortcuts={
                    canMove
                      ? `${ariaKeyShortcuts(KEYMAP.moveSectionUp.keys)} ${ariaKeyShortcuts(KEYMAP.moveSectionDown.keys)}`
                      : undefined
                  }
                  tabIndex={section === focused ? 0 : -1}
                  draggable={canMove}
                  data-testid="outline-item"
                  data-current={isCurrent || undefined}
                  data-drop={hint ?? undefined}
                  className={cn(
                    'qw-outline-row group relative flex cursor-pointer items-center gap-1 rounded-md py-1 pr-2 text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring',
                    // A bar on its left tells the current section from a row under the pointer.
                    isCurrent &&
                      'bg-accent font-medium text-accent-foreground shadow-[inset_3px_0_0_var(--primary)]',
                    dragging?.pos === section.pos && 'opacity-50',
                  )}
                  style={{ paddingLeft: `${0.25 + section.depth * 0.875}rem` }}
                  onFocus={() => setFocusedPos(section.pos)}
                  onClick={() => state.jumpTo(section)}
                  onDragStart={(event) => {
                    event.dataTransfer.effectAllowed = 'move';
                    event.dataTransfer.setData(DRAG_TYPE, String(section.pos));
                    setDragging(section);
                  }}
                  onDragEnd={() => {
                    setDragging(null);
                    setDropHint(null);
                  }}
                  onDragOver={(event) => {
                    if (!dragging || !event.dataTransfer.types.includes(DRAG_TYPE)) return;
                    const placement = placementOf(event);
                    if (moveSection(editor.state, dragging, dropTarget(section, placement)) === null) {
                      setDropHint(null);
                      return;
                    }
                    event.preventDefault();
                    event.dataTransfer.dropEffect = 'move';
                    if (hint !== placement) setDropHint({ pos: section.pos, placement });
                  }}
                  onDrop={(event) => {
                    event.preventDefault();
                    const placement = placementOf(event);
                    if (dragging) {
                      const label = `${placement} “${section.text || 'Untitled section'}”`;
                      move(dragging, dropTarget(section, placement), label);
                    }
                    setDragging(null);
                    setDropHint(null);
                  }}
                >
                  {section.hasChildren ? (
                    <span
                      aria-hidden
                      className="grid size-5 shrink-0 place-items-center rounded hover:bg-background/60"
                      data-testid="outline-collapse"
                      onClick={(event) => {
                        event.stopPropagation();
                        toggleCollapsed(section);
                      }}
                    >
                      <ChevronRight
                        className={cn('size-3.5 transition-transform', expanded && 'rotate-90')}
                      />
                    </span>
                  ) : (
                    <span className="size-5 shrink-0" aria-hidden />
                  )}
                  <span
                    className={cn('min-w-0 flex-1 truncate', !section.text && 'italic text-muted-foreground')}
                  >
                    {section.text || 'Untitled section'}
                  </span>
                  <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
                    {section.words.toLocaleString()}
                    <span className="sr-only">{section.words === 1 ? ' word' : ' words'}</span>
                  </span>
                  {canMove && (
                    <GripVertical
                      aria-hidden
                      className="size-3.5 shrink-0 text-muted-foreground opacity-0 group-hover:opacity-100 group-focus-visible:opacity-100"
                    />
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {moveHint && sections.length > 0 && (
          <p className="mt-3 text-xs text-muted-foreground" data-testid="outline-move-hint">
            {moveHint}
          </p>
        )}
        <p className="sr-only" role="status" aria-live="polite">
          {announcement}
        </p>
      </div>
    </aside>
  );
}
