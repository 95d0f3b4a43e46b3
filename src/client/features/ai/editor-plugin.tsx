import type { Editor } from '@tiptap/core';
import type { EditorAiTools, EditorPlugin } from '@client/features/editor';
import { AiSetupNotice } from '@client/features/settings';
import { AiEditorTools } from './components/AiEditorTools';
import { AiToolbar } from './components/AiToolbar';
import { LiveGrammarSlot } from './live-grammar-slot';
import { useAiActions } from './useAiActions';
import { GhostCompletion, useGhostCompletionPreference } from './useGhostCompletion';

/** One live editor's AI: its actions and panels, the toolbar section, the setup notice, the overlays. */
function useAiEditorTools(
  editor: Editor | null,
  { documentId, isAdmin }: { documentId: string; isAdmin: boolean },
): EditorAiTools {
  useGhostCompletionPreference(editor);
  const controller = useAiActions(editor, documentId);
  return {
    actions: controller.actions,
    assistantOpen: controller.assistantOpen,
    toggleAssistant: controller.toggleAssistant,
    rewriteOpen: controller.rewriteOpen,
    toggleRewrite: controller.toggleRewrite,
    toolbar: <AiToolbar controller={controller} />,
    // While the instance has no AI provider: what to do, or who can set AI up.
    notice: <AiSetupNotice isAdmin={isAdmin} />,
    overlay: <AiEditorTools controller={controller} />,
  };
}

/**
 * The AI features in the editor (docs/ai.md, "Mounting in the editor"): live grammar's place and ghost-text
 * completion among the extensions, and the AI tools of each live editor.
 */
export const aiEditorPlugin: EditorPlugin = {
  name: 'ai',
  extensions: () => [LiveGrammarSlot, GhostCompletion],
  useAiTools: useAiEditorTools,
};
