import type { Editor } from '@tiptap/core';
import { BubbleMenu } from '@tiptap/react/menus';
import { Check, X } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { decideChangeAtCaret } from './suggestion-keymap';
import { suggestionChangeAt } from './suggestion-ops';

/** With the caret in a tracked change: who made it, Accept and Reject (see SuggestionReview). */
export function SuggestionBubble({
  editor,
  changeAuthor,
  onDecide,
}: {
  editor: Editor;
  changeAuthor: string | null;
  onDecide: (run: () => boolean) => void;
}) {
  return (
    <BubbleMenu
      editor={editor}
      pluginKey="suggestionReview"
      // Below the line: above it, on the first line, the bubble would hide the suggestions bar.
      options={{ placement: 'bottom-start', offset: 6 }}
      shouldShow={({ editor: e, state: editorState }) =>
        e.isEditable && editorState.selection.empty && !!suggestionChangeAt(e, editorState.selection.from)
      }
      className="z-40 flex items-center gap-1 rounded-lg border bg-popover p-1 text-sm text-popover-foreground shadow-lg"
      data-testid="suggestion-bubble"
    >
      {changeAuthor && <span className="px-1 text-xs text-muted-foreground">{changeAuthor}</span>}
      <Button
        type="button"
        size="sm"
        variant="ghost"
        title="Accept this change (Alt+Enter)"
        aria-keyshortcuts="Alt+Enter"
        onClick={() => onDecide(() => decideChangeAtCaret(editor, 'accept'))}
      >
        <Check aria-hidden="true" /> Accept
      </Button>
      <Button
        type="button"
        size="sm"
        variant="ghost"
        title="Reject this change (Alt+Shift+Enter)"
        aria-keyshortcuts="Alt+Shift+Enter"
        onClick={() => onDecide(() => decideChangeAtCaret(editor, 'reject'))}
      >
        <X aria-hidden="true" /> Reject
      </Button>
    </BubbleMenu>
  );
}
