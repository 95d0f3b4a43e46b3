import type { AiController } from '../useAiActions';
import { AssistantPanel } from './AssistantPanel';
import { LiveGrammar } from './LiveGrammar';
import { AlternativesDialog } from './AlternativesDialog';
import { RewriteDialog } from './RewriteDialog';
import { SelectionHelper } from './SelectionHelper';
import { SuggestionCard } from './SuggestionCard';

/**
 * The AI overlays of the editor page, mounted once: live grammar underlines, suggestion card, AI Writing
 * Assistant panel, rewrite dialog and selection helper. The top AI toolbar is separate (<AiToolbar />) so the page can place it.
 */
export function AiEditorTools({ controller }: { controller: AiController }) {
  return (
    <>
      <LiveGrammar controller={controller} />
      <SelectionHelper controller={controller} />
      <SuggestionCard controller={controller} />
      <AssistantPanel controller={controller} />
      <RewriteDialog controller={controller} />
      <AlternativesDialog controller={controller} />
    </>
  );
}
