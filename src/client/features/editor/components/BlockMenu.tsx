import type { Editor } from '@tiptap/core';
import { FloatingMenu } from '@tiptap/react/menus';
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
 * SPEC §2 block menu: a trigger beside an empty line opens Text, Heading, Bulleted List, AI Generate, Quote.
 * (Typing '/' at the start of a line opens the full command palette, which contains the same blocks.)
 */
export function BlockMenu({ editor, onGenerate }: BlockMenuProps) {
  return (
    <FloatingMenu editor={editor} className="z-30" options={{ placement: 'left', offset: 8 }}>
      <OnDemandControl
        control={blockInsertMenu}
        standIn={<InsertBlockButton aria-haspopup="menu" aria-expanded={false} />}
      >
        {(BlockInsertMenu, openOnArrival) => (
          <BlockInsertMenu editor={editor} onGenerate={onGenerate} defaultOpen={openOnArrival} />
        )}
      </OnDemandControl>
    </FloatingMenu>
  );
}
