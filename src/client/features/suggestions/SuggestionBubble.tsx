import type { Editor } from '@tiptap/core';
import { BubbleMenu } from '@tiptap/react/menus';
import { Check, X } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { decideChangeAtCaret } from './suggestion-keymap';
import { suggestionChangeAt } from './suggestion-ops';

/** The editor's text element, which the bubble stays inside (the whole window until the view is mounted). */
function editorElement(editor: Editor): Element | undefined {
  try {
    return editor.view.dom;
  } catch {
    return undefined;
  }
}

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
      // Above the change, so the line being read and the ones after it stay uncovered and clickable; below it only
      // where the text has no room above (the first line: above it is the suggestions bar).
      options={{
        placement: 'top-start',
        offset: 6,
        flip: { boundary: editorElement(editor), fallbackPlacements: ['bottom-start'] },
      }}
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
