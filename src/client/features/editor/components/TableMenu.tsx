import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { BubbleMenu } from '@tiptap/react/menus';
import {
  BetweenHorizontalEnd,
  BetweenVerticalEnd,
  PanelTop,
  TableCellsMerge,
  TableCellsSplit,
  Trash2,
} from 'lucide-react';
import { Separator } from '@client/components/ui/separator';
import { ToolbarButton } from './ToolbarButton';

/** The table around the selection, as the page shows it (the wrapper the column-resizing view draws). */
function tableElement(editor: Editor): HTMLElement | null {
  const { $from } = editor.state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    if ($from.node(depth).type.name !== 'table') continue;
    const dom = editor.view.nodeDOM($from.before(depth));
    return dom instanceof HTMLElement ? dom : null;
  }
  return null;
}

/**
 * The table's actions, under the table while the caret is in it: rows and columns, merging and splitting
 * cells, the header row, removing the table. Tab and Shift+Tab move between cells (Tab in the last cell
 * adds a row).
 */
export function TableMenu({ editor }: { editor: Editor }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      inTable: e.isActive('table'),
      canMerge: e.can().mergeCells(),
      canSplit: e.can().splitCell(),
      headerRow: e.isActive('tableHeader'),
    }),
  });
  const run = (command: (chain: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) =>
    command(editor.chain().focus()).run();
  return (
    <BubbleMenu
      editor={editor}
      pluginKey="tableMenu"
      shouldShow={({ editor: e }) => e.isEditable && e.isActive('table')}
      getReferencedVirtualElement={() => {
        const table = tableElement(editor);
        return table ? { getBoundingClientRect: () => table.getBoundingClientRect() } : null;
      }}
      options={{ placement: 'bottom-start', offset: 6 }}
      className="z-30 flex items-center gap-0.5 rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg"
      data-testid="table-menu"
      role="toolbar"
      aria-label="Table"
    >
      {state.inTable && (
        <>
          <ToolbarButton label="Add row below" onClick={() => run((c) => c.addRowAfter())}>
            <BetweenVerticalEnd className="rotate-90" />
          </ToolbarButton>
          <ToolbarButton label="Add column right" onClick={() => run((c) => c.addColumnAfter())}>
            <BetweenHorizontalEnd className="rotate-90" />
          </ToolbarButton>
          <ToolbarButton label="Delete row" onClick={() => run((c) => c.deleteRow())}>
            <span className="text-xs font-medium">− Row</span>
          </ToolbarButton>
          <ToolbarButton label="Delete column" onClick={() => run((c) => c.deleteColumn())}>
            <span className="text-xs font-medium">− Column</span>
          </ToolbarButton>
          <Separator orientation="vertical" className="mx-1 h-6" />
          <ToolbarButton
            label="Merge cells"
            disabled={!state.canMerge}
            onClick={() => run((c) => c.mergeCells())}
          >
            <TableCellsMerge />
          </ToolbarButton>
          <ToolbarButton
            label="Split cell"
            disabled={!state.canSplit}
            onClick={() => run((c) => c.splitCell())}
          >
            <TableCellsSplit />
          </ToolbarButton>
          <ToolbarButton label="Header row" onClick={() => run((c) => c.toggleHeaderRow())}>
            <PanelTop />
          </ToolbarButton>
          <Separator orientation="vertical" className="mx-1 h-6" />
          <ToolbarButton label="Delete table" onClick={() => run((c) => c.deleteTable())}>
            <Trash2 />
          </ToolbarButton>
        </>
      )}
    </BubbleMenu>
  );
}
