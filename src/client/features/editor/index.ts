// The editor's public surface: the page (composed with its plugins by src/client/editor-page.tsx), its plugin
// slot, and what plugins and the shared page's editor build on.
export { EditorPage } from './EditorPage';
export type { EditorAiTools, EditorHeaderActionProps, EditorPlugin, ImageUploadStorage } from './plugins';
export type { EditorAiActions } from './ai-actions';
export { StandInPlugin } from './extensions/stand-in-plugin';
export { changedRange } from './changed-range';
export { blockWordCount, isProposedForDeletion, useEditorStats } from './hooks/useEditorStats';
export { useAiEnabled } from './hooks/useAccountInfo';
export { caretColorFor } from './hooks/collab-user';
export { useCollaboration, type CollabSession } from './hooks/useCollaboration';
export { DocumentCollaboration } from './extensions/collaboration';
export { LinkBehaviour } from './extensions/link-behaviour';
export { FootnoteBehaviour } from './extensions/footnotes';
export {
  Anchor,
  anchorSelection,
  applyAnswer,
  applyGrammarChanges,
  asOneUndoStep,
  grammarChangeRange,
  isBlockAnswer,
  lastChangeFirst,
  loadMarkdown,
  markdownToJson,
  paragraphAtCursor,
  selectedText,
  textBeforeCursor,
  textWithPositions,
  type ApplyMode,
  type TextWithPositions,
} from './editor-ops';
export { SLASH_COMMANDS } from './slash-commands';
