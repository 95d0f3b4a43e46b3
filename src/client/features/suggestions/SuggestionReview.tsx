import type { Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { useEditorState } from '@tiptap/react';
import { BubbleMenu } from '@tiptap/react/menus';
import { Check, CheckCheck, ChevronDown, ChevronUp, X } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { decideChangeAtCaret, goToSuggestion } from './suggestion-keymap';
import { decideSuggestionsInEditor, findSuggestionChanges, suggestionChangeAt } from './suggestion-ops';

const changeCounts = new WeakMap<PmNode, number>();

/** How many changes are pending (counted once per document state, not on every caret move). */
function pendingChanges(editor: Editor): number {
  const doc = editor.state.doc;
  let count = changeCounts.get(doc);
  if (count === undefined) {
    count = findSuggestionChanges(editor).length;
    changeCounts.set(doc, count);
  }
  return count;
}

/**
 * Reviewing tracked changes: a bar above the text while any are pending (count, previous / next, Accept all,
 * Reject all) and, with the caret in a change, a small bubble to accept or reject that change. The keyboard
 * does the same (suggestion-keymap.ts).
 */
export function SuggestionReview({ editor }: { editor: Editor }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      const change = e.state.selection.empty ? suggestionChangeAt(e, e.state.selection.from) : undefined;
      return { pending: pendingChanges(e), changeAuthor: change?.authorName ?? null, editable: e.isEditable };
    },
  });
  // After a decision the writer goes on in the text (the keys work there), not on a button that may vanish.
  const decide = (run: () => boolean) => {
    run();
    editor.commands.focus();
  };
  return (
    <>
      {state.pending > 0 && state.editable && (
        <div
          role="toolbar"
          aria-label="Suggestions"
          data-testid="suggestion-bar"
          className="mb-4 flex flex-wrap items-center gap-1 rounded-lg border bg-background px-2 py-1 text-sm shadow-sm"
        >
          <span className="mr-auto px-1 text-muted-foreground" aria-live="polite">
            {state.pending === 1 ? '1 suggestion' : `${state.pending} suggestions`}
          </span>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-label="Previous suggestion"
            title="Previous suggestion (Alt+↑)"
            aria-keyshortcuts="Alt+ArrowUp"
            onClick={() => goToSuggestion(editor, -1)}
          >
            <ChevronUp aria-hidden="true" />
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-label="Next suggestion"
            title="Next suggestion (Alt+↓)"
            aria-keyshortcuts="Alt+ArrowDown"
            onClick={() => goToSuggestion(editor, 1)}
          >
            <ChevronDown aria-hidden="true" />
          </Button>
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => decide(() => decideSuggestionsInEditor(editor, 'accept'))}
          >
            <CheckCheck aria-hidden="true" /> Accept all
          </Button>
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => decide(() => decideSuggestionsInEditor(editor, 'reject'))}
          >
            <X aria-hidden="true" /> Reject all
          </Button>
        </div>
      )}
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
        {state.changeAuthor && (
          <span className="px-1 text-xs text-muted-foreground">{state.changeAuthor}</span>
        )}
        <Button
          type="button"
          size="sm"
          variant="ghost"
          title="Accept this change (Alt+Enter)"
          aria-keyshortcuts="Alt+Enter"
          onClick={() => decide(() => decideChangeAtCaret(editor, 'accept'))}
        >
          <Check aria-hidden="true" /> Accept
        </Button>
        <Button
          type="button"
          size="sm"
          variant="ghost"
          title="Reject this change (Alt+Shift+Enter)"
          aria-keyshortcuts="Alt+Shift+Enter"
          onClick={() => decide(() => decideChangeAtCaret(editor, 'reject'))}
        >
          <X aria-hidden="true" /> Reject
        </Button>
      </BubbleMenu>
    </>
  );
}
