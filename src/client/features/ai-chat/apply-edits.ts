import type { Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import type { ChatEdit } from '@shared/schemas/ai-chat';
import type { Preferences } from '@shared/settings-defaults';
import { textWithPositions } from '@client/features/editor';
import { applyAiAnswer, applyAiGrammarChanges } from '@client/features/ai';
import { newSuggestionGroup } from '@client/features/suggestions';

/**
 * A chat answer's edits in the live document: each `find` is looked up inside one text block (the first
 * exact match; failing that, the first match that differs only in whitespace, straight/curly quotes and
 * dashes, or a Markdown block prefix the model copied from its view of the document), and every located
 * edit is applied with applyAiAnswer, all in one suggestion group to review.
 */

export interface Range {
  from: number;
  to: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const EQUIVALENT: Record<string, string> = {
  "'": "['‘’]",
  '‘': "['‘’]",
  '’': "['‘’]",
  '"': '["“”]',
  '“': '["“”]',
  '”': '["“”]',
  '-': '[-–—]',
  '–': '[-–—]',
  '—': '[-–—]',
};
/** "## ", "- ", "> ", "1. ": how the model was shown headings, list items and quotes. */
const BLOCK_PREFIX = /^(#{1,6}\s+|[-*+]\s+|>\s+|\d+[.)]\s+)/;

function looseRegExp(find: string): RegExp | null {
  const words = find.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const word = (w: string) =>
    Array.from(w)
      .map((c) => EQUIVALENT[c] ?? escape(c))
      .join('');
  return new RegExp(words.map(word).join('\\s+'));
}

function blocksOf(doc: PmNode) {
  const blocks: ReturnType<typeof textWithPositions>[] = [];
  doc.descendants((node, pos) => {
    if (!node.isTextblock) return true;
    blocks.push(textWithPositions(doc, pos + 1, pos + node.nodeSize - 1));
    return false;
  });
  return blocks;
}

function rangeOf(block: ReturnType<typeof textWithPositions>, index: number, length: number): Range | null {
  if (index < 0 || length <= 0) return null;
  const from = block.positions[index];
  const last = block.positions[index + length - 1];
  if (from === undefined || last === undefined || from < 0 || last < 0) return null;
  return { from, to: last + 1 };
}

/** Where `find` is in the document, or null. */
export function locateEdit(doc: PmNode, find: string): Range | null {
  const blocks = blocksOf(doc);
  const candidates = [find];
  const unprefixed = find.trim().replace(BLOCK_PREFIX, '');
  if (unprefixed !== find.trim()) candidates.push(unprefixed);
  for (const candidate of candidates) {
    for (const block of blocks) {
      const range = rangeOf(block, block.text.indexOf(candidate), candidate.length);
      if (range) return range;
    }
  }
  for (const candidate of candidates) {
    const pattern = looseRegExp(candidate);
    if (!pattern) continue;
    for (const block of blocks) {
      const match = pattern.exec(block.text);
      const range = match && rangeOf(block, match.index, match[0].length);
      if (range) return range;
    }
  }
  return null;
}

export interface ChatEditsOutcome {
  /** Edits now in the document (as suggestions, or written, per the writer's preference). */
  applied: number;
  /** Edits whose passage was not found (or overlapped another edit). */
  missing: ChatEdit[];
  /** The suggestion group the edits were proposed in ('apply': they were written at once, no group). */
  groupId: string;
  preference: Preferences['aiChanges'];
}

export function applyChatEdits(
  editor: Editor,
  edits: ChatEdit[],
  preference: Preferences['aiChanges'],
): ChatEditsOutcome {
  const missing: ChatEdit[] = [];
  const located: { edit: ChatEdit; range: Range }[] = [];
  for (const edit of edits) {
    const range = locateEdit(editor.state.doc, edit.find);
    const overlaps =
      range && located.some((other) => range.from < other.range.to && other.range.from < range.to);
    if (!range || overlaps) missing.push(edit);
    else located.push({ edit, range });
  }
  // From the end of the document, so that each change leaves the ranges before it where they were.
  located.sort((a, b) => b.range.from - a.range.from);
  const group = newSuggestionGroup();
  let applied = 0;
  for (const { edit, range } of located) {
    const ok = edit.replace.trim()
      ? applyAiAnswer(editor, range, edit.replace, 'replace', preference, group)
      : applyAiGrammarChanges(
          editor,
          textWithPositions(editor.state.doc, range.from, range.to),
          [
            {
              offset: 0,
              length: range.to - range.from,
              original: editor.state.doc.textBetween(range.from, range.to),
              replacement: '',
              message: '',
              kind: 'chat',
            },
          ],
          preference,
          group,
        ) > 0;
    if (ok) applied += 1;
    else missing.push(edit);
  }
  return { applied, missing, groupId: group.id, preference };
}
