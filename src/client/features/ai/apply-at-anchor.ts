import type { Editor } from '@tiptap/core';
import type { Preferences } from '@shared/settings-defaults';
import type { Anchor } from '@client/features/editor';
import { keepVersionBeforeAiChange } from '@client/features/history';
import { applyAiAnswer } from './apply-ai-change';

/**
 * Writes an accepted AI answer where it was asked for, after keeping a version: over the anchored text while that
 * text is unchanged, otherwise below it (at the caret when the text is gone), so what the writer changed while
 * the answer was written is never overwritten. Answers 'replaced' or 'inserted below', or null when the editor
 * went away while the version was kept.
 */
export async function applyAnswerAtAnchor(options: {
  editor: Editor;
  documentId: string;
  anchor: Anchor;
  answer: string;
  preference: Preferences['aiChanges'];
}): Promise<'replaced' | 'inserted below' | null> {
  const { editor, anchor, answer, preference } = options;
  await keepVersionBeforeAiChange(options.documentId);
  if (editor.isDestroyed) return null;
  const range = anchor.resolve();
  if (range && anchor.isIntact()) {
    applyAiAnswer(editor, range, answer, 'replace', preference);
    return 'replaced';
  }
  const at = range ?? { from: editor.state.selection.to, to: editor.state.selection.to };
  applyAiAnswer(editor, at, answer, 'after', preference);
  return 'inserted below';
}
