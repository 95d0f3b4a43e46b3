import type { EditorPlugin } from '@client/features/editor';
import { SuggestingModeSwitch } from './SuggestingModeSwitch';
import { SuggestionKeymap } from './suggestion-keymap';
import { SuggestingMode } from './suggesting-mode';
import { loadSuggestionBubble, SuggestionReview } from './SuggestionReview';

/**
 * Suggesting mode in the editor: its extension (the writer's edits become suggestions in their name) and keys,
 * the mode switch in the header, the suggestions to review above the text and the bubble on a suggestion.
 */
export const suggestionsEditorPlugin: EditorPlugin = {
  name: 'suggestions',
  extensions: ({ user }) => [
    SuggestionKeymap,
    SuggestingMode.configure({ author: { author_id: user.id, author_name: user.name } }),
  ],
  preload: () => void loadSuggestionBubble(),
  ModeSwitch: SuggestingModeSwitch,
  AboveText: SuggestionReview,
};
