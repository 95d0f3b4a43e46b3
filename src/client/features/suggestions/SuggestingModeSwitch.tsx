import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { MessageSquarePlus, Pencil } from 'lucide-react';
import { ChoiceGroup, ChoiceItem } from '@client/components/ui/choice-group';
import { cn } from '@client/lib/utils';
import { isSuggesting } from './suggesting-mode';

const SEGMENT = cn(
  'inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-xs font-medium text-muted-foreground transition',
  'hover:text-foreground data-[state=checked]:bg-background data-[state=checked]:text-foreground data-[state=checked]:shadow-sm',
);

/**
 * Editing / Suggesting, in the editor header. In Suggesting, what the writer types and deletes becomes
 * tracked suggestions (suggesting-mode.ts) that anyone with the document can accept or reject.
 */
export function SuggestingModeSwitch({ editor }: { editor: Editor }) {
  const suggesting = useEditorState({ editor, selector: ({ editor: e }) => isSuggesting(e) });
  return (
    <ChoiceGroup
      aria-label="Editing mode"
      className="inline-flex items-center gap-0.5 rounded-lg bg-muted p-0.5"
      value={suggesting ? 'suggesting' : 'editing'}
      onValueChange={(value) => editor.commands.setSuggesting(value === 'suggesting')}
      data-testid="editing-mode"
    >
      <ChoiceItem value="editing" className={SEGMENT} title="Editing: change the text directly">
        <Pencil className="size-3.5" aria-hidden="true" />
        {/* On a phone the icons stand alone; the names stay for screen readers. */}
        <span className="sr-only sm:not-sr-only">Editing</span>
      </ChoiceItem>
      <ChoiceItem
        value="suggesting"
        className={SEGMENT}
        title="Suggesting: your changes become suggestions to accept or reject"
      >
        <MessageSquarePlus className="size-3.5" aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">Suggesting</span>
      </ChoiceItem>
    </ChoiceGroup>
  );
}
