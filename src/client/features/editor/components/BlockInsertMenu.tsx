import type { Editor } from '@tiptap/core';
import { Heading, List, Pilcrow, Quote, Sparkles } from 'lucide-react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { runBlockCommand } from '../extensions/block-commands';
import { InsertBlockButton } from './InsertBlockButton';

export interface BlockInsertMenuProps {
  editor: Editor;
  onGenerate?: (() => void) | undefined;
  defaultOpen: boolean;
}

/** The block menu's dropdown (see BlockMenu, which loads it after the editor's first paint). */
export function BlockInsertMenu({ editor, onGenerate, defaultOpen }: BlockInsertMenuProps) {
  return (
    // Not modal: a modal menu aria-hides the page while its links and buttons stay focusable.
    <DropdownMenu modal={false} defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <InsertBlockButton />
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
  );
}
