import type { Editor, Range } from '@tiptap/core';
import { NEW_TABLE_COLUMNS, NEW_TABLE_ROWS } from '@shared/constants';
import type { AiActionName, EditorAiActions } from '../ai-actions';
import type { AiCommandId, BlockCommandId, SlashCommandId } from '../slash-commands';
import { isAiCommand, isCustomCommand } from '../slash-commands';

const AI_ACTION_FOR: Record<AiCommandId, AiActionName> = {
  aiComplete: 'complete',
  aiRewrite: 'rewrite',
  aiSummarize: 'summarize',
  aiAssistant: 'openAssistant',
};

export function aiActionFor(id: AiCommandId, ai: EditorAiActions): (() => void) | undefined {
  return ai[AI_ACTION_FOR[id]];
}

/** Whether a palette command can run now (AI commands need the AI features wired). */
export function isCommandAvailable(id: SlashCommandId, ai: EditorAiActions): boolean {
  if (isCustomCommand(id)) return ai.runCustomCommand !== undefined;
  return !isAiCommand(id) || aiActionFor(id, ai) !== undefined;
}

/** Turns the current block into the requested kind. `range` (the typed '/query') is deleted first. */
export function runBlockCommand(editor: Editor, id: BlockCommandId, range?: Range): boolean {
  const chain = editor.chain().focus();
  if (range) chain.deleteRange(range);
  switch (id) {
    case 'text':
      return chain.setParagraph().run();
    case 'heading1':
      return chain.setHeading({ level: 1 }).run();
    case 'heading2':
      return chain.setHeading({ level: 2 }).run();
    case 'heading3':
      return chain.setHeading({ level: 3 }).run();
    case 'bulletList':
      return chain.toggleBulletList().run();
    case 'orderedList':
      return chain.toggleOrderedList().run();
    case 'quote':
      return chain.toggleBlockquote().run();
    case 'codeBlock':
      return chain.toggleCodeBlock().run();
    case 'divider':
      return chain.setHorizontalRule().run();
    case 'taskList':
      return chain.toggleTaskList().run();
    case 'table':
      return chain.insertTable({ rows: NEW_TABLE_ROWS, cols: NEW_TABLE_COLUMNS, withHeaderRow: true }).run();
    case 'footnote':
      return chain.insertFootnote().run();
    case 'image': {
      const upload = editor.storage.imageUpload;
      if (!upload) return false;
      chain.run();
      upload.chooseFile();
      return true;
    }
  }
}

/** Runs any palette command; AI commands call into the AI features. Returns false when unavailable. */
export function runSlashCommand(
  editor: Editor,
  id: SlashCommandId,
  ai: EditorAiActions,
  range?: Range,
): boolean {
  if (isCustomCommand(id)) {
    const run = ai.runCustomCommand;
    if (!run) return false;
    if (range) editor.chain().focus().deleteRange(range).run();
    run(id.slice('command:'.length));
    return true;
  }
  if (!isAiCommand(id)) return runBlockCommand(editor, id, range);
  const action = aiActionFor(id, ai);
  if (!action) return false;
  if (range) editor.chain().focus().deleteRange(range).run();
  action();
  return true;
}
