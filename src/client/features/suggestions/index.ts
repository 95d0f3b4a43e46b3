export { suggestionsEditorPlugin } from './editor-plugin';
export { isSuggesting, SuggestingMode } from './suggesting-mode';
export { SuggestionLegend } from './SuggestionLegend';
export {
  applyAnswerAsSuggestion,
  applyGrammarChangesAsSuggestions,
  newSuggestionGroup,
} from './suggestion-ops';
