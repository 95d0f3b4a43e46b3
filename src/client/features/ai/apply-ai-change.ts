import type { Editor } from '@tiptap/core';
import type { Preferences } from '@shared/settings-defaults';
import type { GrammarChange } from '@shared/schemas/ai';
import type { SuggestionAttributes } from '@shared/editor/suggestion-marks';
import {
  applyAnswer,
  applyGrammarChanges,
  type ApplyMode,
  type TextWithPositions,
} from '@client/features/editor';
import {
  applyAnswerAsSuggestion,
  applyGrammarChangesAsSuggestions,
  newSuggestionGroup,
} from '@client/features/suggestions';

/**
 * The one way an accepted AI answer reaches the text, for every entry point (suggestion card, rewrite
 * dialog, grammar check): as a tracked-change group to review (the default) or written at once, as the
 * writer's "AI changes" preference says. Either way it is one undo step. Several answers that belong
 * together (a chat answer's edits) pass the same `group` so they are reviewed as one suggestion group.
 */
export function applyAiAnswer(
  editor: Editor,
  range: { from: number; to: number },
  answer: string,
  mode: ApplyMode,
  preference: Preferences['aiChanges'],
  group: SuggestionAttributes = newSuggestionGroup(),
): boolean {
  return preference === 'apply'
    ? applyAnswer(editor, range, answer, mode)
    : applyAnswerAsSuggestion(editor, range, answer, mode, group);
}

/** Grammar fixes, by the same preference. Returns how many were applied or proposed. */
export function applyAiGrammarChanges(
  editor: Editor,
  source: TextWithPositions,
  changes: GrammarChange[],
  preference: Preferences['aiChanges'],
  group: SuggestionAttributes = newSuggestionGroup(),
): number {
  return preference === 'apply'
    ? applyGrammarChanges(editor, source, changes)
    : applyGrammarChangesAsSuggestions(editor, source, changes, group);
}
