/**
 * What the editor needs from the AI features (features/ai, AI engineer). Every entry is optional: a missing one
 * renders its button, palette item and shortcut as disabled (never a fake action).
 */
export interface EditorAiActions {
  /** Floating toolbar "AI Improve": improve the selection in place. */
  improveSelection?: () => void;
  /** Palette "AI Complete", its shortcut (KEYMAP.aiComplete), "Continue Writing". */
  complete?: () => void;
  /** Palette "AI Rewrite", Ctrl+R, toolbar "Rewrite". */
  rewrite?: () => void;
  /** Palette "AI Summarize", "Summarize". */
  summarize?: () => void;
  /** Palette "AI Assistant", Ctrl+/, toolbar "AI Assistant", "Smart Improve". */
  openAssistant?: () => void;
  /** Block menu "AI Generate". */
  generate?: () => void;
  /** The writer's own commands offered in the palette (Settings → AI commands, "Slash palette" ticked). */
  paletteCommands?: readonly { id: string; name: string; instruction: string }[];
  /** Runs one of the writer's commands on the selection, or else on the paragraph at the caret. */
  runCustomCommand?: (commandId: string) => void;
}

export type AiActionName = Exclude<keyof EditorAiActions, 'paletteCommands' | 'runCustomCommand'>;
