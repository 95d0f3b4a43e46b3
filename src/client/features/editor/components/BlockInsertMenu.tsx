import type { Editor } from '@tiptap/core';
import { Heading, ImagePlus, List, Pilcrow, Quote, Sparkles } from 'lucide-react';
import { useEffect, useState } from 'react';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { runBlockCommand } from '../extensions/block-commands';
import type { BlockCommandId } from '../slash-commands';
import { InsertBlockButton } from './InsertBlockButton';

export interface BlockInsertMenuProps {
  editor: Editor;
  onGenerate?: (() => void) | undefined;
  defaultOpen: boolean;
  onOpenChange?: (open: boolean) => void;
}

/** The block menu's dropdown (see BlockMenu, which loads it after the editor's first paint). */
export function BlockInsertMenu({ editor, onGenerate, defaultOpen, onOpenChange }: BlockInsertMenuProps) {
  // Opened by the code's arrival (a first click before it was here): the "+" must know it is open.
  useEffect(() => {
    if (defaultOpen) onOpenChange?.(true);
  }, [defaultOpen, onOpenChange]);
  // The menu is drawn inside the "+"'s floating element: the editor loses focus to the menu, and a focus that
  // moves outside that element takes the "+" away (TipTap's floating menu), which left the menu in the corner.
  const [host, setHost] = useState<HTMLElement | null>(null);
  // The text takes the focus back at once (the command's own focus waits a frame), so the keys typed right
  // after the choice go into the new block.
  const choose = (kind: BlockCommandId) => {
    runBlockCommand(editor, kind);
    editor.view.focus();
  };
  return (
    // Not modal: a modal menu aria-hides the page while its links and buttons stay focusable.
    <DropdownMenu modal={false} defaultOpen={defaultOpen} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>
        <InsertBlockButton />
      </DropdownMenuTrigger>
      <span ref={setHost} className="contents" />
      {host && (
        <DropdownMenuContent
          container={host}
          align="start"
          onCloseAutoFocus={(event) => {
            // Back to the text, with the caret where the block was changed, so typing goes on there; unless the
            // choice opened something that took the focus (AI Generate).
            event.preventDefault();
            requestAnimationFrame(() => {
              const focused = document.activeElement;
              if (!focused || focused === document.body) editor.commands.focus();
            });
          }}
        >
          <DropdownMenuItem onSelect={() => choose('text')}>
            <Pilcrow /> Text
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => choose('heading1')}>
            <Heading /> Heading
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => choose('bulletList')}>
            <List /> Bulleted List
          </DropdownMenuItem>
          <DropdownMenuItem disabled={!onGenerate} onSelect={() => onGenerate?.()}>
            <Sparkles /> AI Generate
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => choose('quote')}>
            <Quote /> Quote
          </DropdownMenuItem>
          {editor.storage.imageUpload && editor.isEditable && (
            <DropdownMenuItem onSelect={() => choose('image')}>
              <ImagePlus /> Image
            </DropdownMenuItem>
          )}
        </DropdownMenuContent>
      )}
    </DropdownMenu>
  );
}
