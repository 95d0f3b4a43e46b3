// The AI features' entry point for the editor page (see docs/ai.md, "Mounting in the editor"), and what chat
// with the document shares with them: the streaming client, error texts, positions in the text, applying answers.
export { aiEditorPlugin } from './editor-plugin';
export { streamAi, type StreamResult } from './api';
export { aiNotSetUpText, isAbort } from './errors';
export { applyAiAnswer, applyAiGrammarChanges } from './apply-ai-change';
