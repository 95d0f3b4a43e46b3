import { Extension, type Editor } from '@tiptap/core';
import { decideSuggestionsInEditor, findSuggestionChanges, suggestionChangeAt } from './suggestion-ops';
import type { SuggestionDecision } from '@shared/suggestions/resolve';

/** Keyboard review of tracked changes (listed in the shortcuts help). Keys do nothing where no change is. */
const SUGGESTION_SHORTCUTS = {
  next: 'Alt-ArrowDown',
  previous: 'Alt-ArrowUp',
  accept: 'Alt-Enter',
  reject: 'Alt-Shift-Enter',
} as const;

/** Moves the caret into the next (or previous) change, wrapping around; false when there is none. */
export function goToSuggestion(editor: Editor, direction: 1 | -1): boolean {
  const changes = findSuggestionChanges(editor);
  if (changes.length === 0) return false;
  const { from } = editor.state.selection;
  const target =
    direction === 1
      ? (changes.find((change) => change.from > from) ?? changes[0]!)
      : ([...changes].reverse().find((change) => change.to < from) ?? changes.at(-1)!);
  editor
    .chain()
    .focus()
    .setTextSelection(target.from + 1)
    .scrollIntoView()
    .run();
  return true;
}

/** Accepts or rejects the change at the caret. */
export function decideChangeAtCaret(editor: Editor, decision: SuggestionDecision): boolean {
  const change = suggestionChangeAt(editor, editor.state.selection.from);
  if (!change) return false;
  return decideSuggestionsInEditor(editor, decision, change);
}

export const SuggestionKeymap = Extension.create({
  name: 'suggestionKeymap',
  addKeyboardShortcuts() {
    return {
      [SUGGESTION_SHORTCUTS.next]: () => goToSuggestion(this.editor, 1),
      [SUGGESTION_SHORTCUTS.previous]: () => goToSuggestion(this.editor, -1),
      [SUGGESTION_SHORTCUTS.accept]: () => decideChangeAtCaret(this.editor, 'accept'),
      [SUGGESTION_SHORTCUTS.reject]: () => decideChangeAtCaret(this.editor, 'reject'),
    };
  },
});
