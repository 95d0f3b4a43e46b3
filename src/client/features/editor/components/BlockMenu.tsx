import type { Editor } from '@tiptap/core';
import type { EditorState } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { FloatingMenu } from '@tiptap/react/menus';
import { useCallback, useRef } from 'react';
import { onDemand, OnDemandControl } from '@client/lib/on-demand';
import { InsertBlockButton } from './InsertBlockButton';

// The dropdown brings the menu library, which typing does not need: fetched right after the editor's first paint.
const blockInsertMenu = onDemand(async () => (await import('./BlockInsertMenu')).BlockInsertMenu);

export interface BlockMenuProps {
  editor: Editor;
  /** AI Generate (features/ai); disabled when absent. */
  onGenerate?: () => void;
}

/**
 * The block menu: a trigger beside an empty line opens Text, Heading, Bulleted List, AI Generate, Quote
 * (and Image where images can be added).
 * (Typing '/' at the start of a line opens the full command palette, which contains the same blocks.)
 */
export function BlockMenu({ editor, onGenerate }: BlockMenuProps) {
  // While its menu is open the "+" stays where it is: the menu is placed against it, and the editor has lost
  // focus to the menu, which would otherwise take the "+" away and leave the menu in the window's corner.
  const menuOpen = useRef(false);
  const shouldShow = useCallback(
    ({ editor: e, view, state }: { editor: Editor; view: EditorView; state: EditorState }) =>
      menuOpen.current || (view.hasFocus() && e.isEditable && isOnEmptyLine(state)),
    [],
  );
  const onOpenChange = useCallback((open: boolean) => {
    menuOpen.current = open;
  }, []);
  return (
    <FloatingMenu
      editor={editor}
      className="z-30"
      options={{ placement: 'left', offset: 8 }}
      shouldShow={shouldShow}
    >
      <OnDemandControl
        control={blockInsertMenu}
        standIn={<InsertBlockButton aria-haspopup="menu" aria-expanded={false} />}
      >
        {(BlockInsertMenu, openOnArrival) => (
          <BlockInsertMenu
            editor={editor}
            onGenerate={onGenerate}
            defaultOpen={openOnArrival}
            onOpenChange={onOpenChange}
          />
        )}
      </OnDemandControl>
    </FloatingMenu>
  );
}

/** The caret in an empty top-level paragraph or heading (not in code): where the "+" is offered. */
function isOnEmptyLine(state: EditorState): boolean {
  const { $anchor, empty } = state.selection;
  const line = $anchor.parent;
  return empty && $anchor.depth === 1 && line.isTextblock && !line.type.spec.code && line.childCount === 0;
}
