import type { Editor } from '@tiptap/core';
import { FloatingMenu } from '@tiptap/react/menus';
import { Heading, List, Pilcrow, Plus, Quote, Sparkles } from 'lucide-react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { runBlockCommand } from '../extensions/block-commands';

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
      {/* Not modal: a modal menu aria-hides the page while its links and buttons stay focusable. */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <button
            type="button"
            aria-label="Insert block"
            className="grid size-7 place-items-center rounded-md border bg-background text-muted-foreground shadow-xs hover:text-foreground"
          >
            <Plus className="size-4" />
          </button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" onCloseAutoFocus={(event) => event.preventDefault()}>
          <DropdownMenuItem onSelect={() => runBlockCommand(editor, 'text')}>
            <Pilcrow /> Text
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => runBlockCommand(editor, 'heading1')}>
            <Heading /> Heading
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => runBlockCommand(editor, 'bulletList')}>
            <List /> Bulleted List
          </DropdownMenuItem>
          <DropdownMenuItem disabled={!onGenerate} onSelect={() => onGenerate?.()}>
            <Sparkles /> AI Generate
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => runBlockCommand(editor, 'quote')}>
            <Quote /> Quote
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </FloatingMenu>
  );
}
