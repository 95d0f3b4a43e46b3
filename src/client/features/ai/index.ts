// The AI features' entry points for the editor page (see docs/ai.md, "Mounting in the editor").
export { useAiActions, type AiController } from './useAiActions';
export { AiToolbar } from './components/AiToolbar';
export { AiEditorTools } from './components/AiEditorTools';
