import type { Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { useEditorState } from '@tiptap/react';
import { CheckCheck, ChevronDown, ChevronUp, X } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Button } from '@client/components/ui/button';
import { goToSuggestion } from './suggestion-keymap';
import { decideSuggestionsInEditor, findSuggestionChanges, suggestionChangeAt } from './suggestion-ops';

/** TipTap's floating menus are not needed to type: fetched as the editor page mounts (see EditorPage). */
export const loadSuggestionBubble = () => import('./SuggestionBubble');
const SuggestionBubble = lazy(() => loadSuggestionBubble().then((m) => ({ default: m.SuggestionBubble })));

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
      <Suspense fallback={null}>
        <SuggestionBubble editor={editor} changeAuthor={state.changeAuthor} onDecide={decide} />
      </Suspense>
    </>
  );
}
