import type { Editor, JSONContent } from '@tiptap/core';
import { closeHistory } from '@tiptap/pm/history';
import type { MarkType, Node as PmNode } from '@tiptap/pm/model';
import type { GrammarChange } from '@shared/schemas/ai';
import type { SuggestionAttributes } from '@shared/editor/suggestion-marks';
import type { SuggestionDecision } from '@shared/suggestions/resolve';
import { wordDiff } from '@client/lib/word-diff';
import { SUGGESTION_OPERATION } from './suggesting-mode';
import {
  asOneUndoStep,
  grammarChangeRange,
  isBlockAnswer,
  lastChangeFirst,
  markdownToJson,
  textWithPositions,
  type ApplyMode,
  type TextWithPositions,
} from '@client/features/editor';

/**
 * Tracked changes in the live editor: AI answers land as a word-level diff of the text they were asked
 * about (deleted words marked `deletion`, new words inserted with `insertion`), one suggestion group (id)
 * per answer, and each change is accepted or rejected on its own, by group or all at once. Every operation
 * is one transaction between undo boundaries and goes through the Yjs binding like typing, so collaborators
 * see the same suggestions and decisions. Stored content is decided by the same rules in
 * src/shared/suggestions/resolve.ts (exports).
 */

const AI_AUTHOR = { author_id: 'ai', author_name: 'Quillwright AI' } as const;

/** The attributes of a new suggestion group. */
export function newSuggestionGroup(
  author: Pick<SuggestionAttributes, 'author_id' | 'author_name'> = AI_AUTHOR,
  source: SuggestionAttributes['source'] = 'ai',
): SuggestionAttributes {
  return { id: crypto.randomUUID(), ...author, source, created_at: new Date().toISOString() };
}

function suggestionTypes(editor: Editor) {
  const { insertion, deletion } = editor.schema.marks;
  if (!insertion || !deletion) throw new Error('The editor schema has no suggestion marks');
  return { insertion, deletion };
}

type Operation = { kind: 'delete'; from: number; to: number } | { kind: 'insert'; at: number; text: string };

/** The edits that turn `source` into `target`, word by word, as document positions. */
function diffOperations(source: TextWithPositions, target: string, range: { from: number; to: number }) {
  const operations: Operation[] = [];
  let offset = 0;
  for (const part of wordDiff(source.text, target)) {
    const length = part.text.length;
    if (part.type === 'same') {
      offset += length;
      continue;
    }
    if (part.type === 'removed') {
      let start = -1;
      let previous = -1;
      for (let i = offset; i < offset + length; i++) {
        const position = source.positions[i] ?? -1;
        if (start >= 0 && position === previous + 1) {
          previous = position;
          continue;
        }
        if (start >= 0) operations.push({ kind: 'delete', from: start, to: previous + 1 });
        start = position;
        previous = position;
      }
      if (start >= 0) operations.push({ kind: 'delete', from: start, to: previous + 1 });
      offset += length;
      continue;
    }
    const before = offset > 0 ? (source.positions[offset - 1] ?? -1) : -1;
    const after = source.positions[offset] ?? -1;
    const at = before >= 0 ? before + 1 : after >= 0 ? after : offset === 0 ? range.from : range.to;
    // A plain answer is inline text: a line break inside it reads as a space in a paragraph.
    operations.push({ kind: 'insert', at, text: part.text.replace(/\s*\n\s*/g, ' ') });
  }
  return operations.filter((operation) => operation.kind === 'delete' || operation.text !== '');
}

/** Marks text of the JSON as inserted by the group (for block answers, which arrive as Markdown). */
function markInserted(nodes: JSONContent[], attrs: SuggestionAttributes): JSONContent[] {
  return nodes.map((node) => {
    if (node.type === 'text')
      return { ...node, marks: [...(node.marks ?? []), { type: 'insertion', attrs: { ...attrs } }] };
    return node.content ? { ...node, content: markInserted(node.content, attrs) } : node;
  });
}

/**
 * Writes an AI answer as a suggestion group: a plain answer replacing a range becomes a word-level diff;
 * an answer inserted after or appended to a range, or one with block structure, is inserted as a whole with
 * the replaced range (if any) marked for deletion.
 */
export function applyAnswerAsSuggestion(
  editor: Editor,
  range: { from: number; to: number },
  answer: string,
  mode: ApplyMode,
  attrs: SuggestionAttributes = newSuggestionGroup(),
): boolean {
  const text = answer.trim();
  if (!text) return false;
  const { insertion, deletion } = suggestionTypes(editor);
  const block = isBlockAnswer(text);
  return asOneUndoStep(editor, () => {
    if (mode === 'replace' && !block) {
      const source = textWithPositions(editor.state.doc, range.from, range.to);
      const operations = diffOperations(source, text, range);
      if (operations.length === 0) return false;
      return editor
        .chain()
        .command(({ tr }) => {
          closeHistory(tr);
          tr.setMeta(SUGGESTION_OPERATION, true);
          // From the end, so earlier positions stay valid; at one position, mark before inserting.
          const key = (operation: Operation) => (operation.kind === 'delete' ? operation.from : operation.at);
          operations.sort((a, b) => key(b) - key(a) || (a.kind === 'delete' ? -1 : 1));
          for (const operation of operations) {
            if (operation.kind === 'delete') {
              tr.addMark(operation.from, operation.to, deletion.create(attrs));
            } else {
              tr.insertText(operation.text, operation.at);
              tr.removeMark(operation.at, operation.at + operation.text.length, deletion);
              tr.addMark(operation.at, operation.at + operation.text.length, insertion.create(attrs));
            }
          }
          return true;
        })
        .run();
    }
    if (mode === 'append' && !block) {
      const before = range.to > 0 ? editor.state.doc.textBetween(range.to - 1, range.to, '\n', '\n') : '';
      const spaced = before && !/\s/.test(before) ? ` ${text}` : text;
      return editor
        .chain()
        .command(({ tr }) => {
          closeHistory(tr);
          tr.setMeta(SUGGESTION_OPERATION, true);
          tr.insertText(spaced, range.to);
          tr.removeMark(range.to, range.to + spaced.length, deletion);
          tr.addMark(range.to, range.to + spaced.length, insertion.create(attrs));
          return true;
        })
        .run();
    }
    const content = markInserted((markdownToJson(editor, text).content ?? []).filter(Boolean), attrs);
    const $to = editor.state.doc.resolve(range.to);
    const at = $to.depth >= 1 ? $to.after(1) : range.to;
    return editor
      .chain()
      .command(({ tr }) => {
        closeHistory(tr);
        tr.setMeta(SUGGESTION_OPERATION, true);
        if (mode === 'replace' && range.to > range.from)
          tr.addMark(range.from, range.to, deletion.create(attrs));
        return true;
      })
      .insertContentAt(at, content, { updateSelection: false })
      .run();
  });
}

/** Grammar fixes as one suggestion group: each original marked for deletion, its replacement inserted after. */
export function applyGrammarChangesAsSuggestions(
  editor: Editor,
  source: TextWithPositions,
  changes: GrammarChange[],
  attrs: SuggestionAttributes = newSuggestionGroup(),
): number {
  const { insertion, deletion } = suggestionTypes(editor);
  let applied = 0;
  asOneUndoStep(editor, () =>
    editor
      .chain()
      .command(({ tr }) => {
        closeHistory(tr);
        tr.setMeta(SUGGESTION_OPERATION, true);
        for (const change of lastChangeFirst(changes)) {
          const range = grammarChangeRange(tr.doc, source, change);
          if (!range) continue;
          const { from: first, to: end } = range;
          if (change.replacement) {
            tr.insertText(change.replacement, end);
            tr.removeMark(end, end + change.replacement.length, deletion);
            tr.addMark(end, end + change.replacement.length, insertion.create(attrs));
          }
          tr.addMark(first, end, deletion.create(attrs));
          applied += 1;
        }
        return applied > 0;
      })
      .run(),
  );
  return applied;
}

/** One change: a run of suggested text of one group (a deletion and the insertion beside it are one change). */
export interface SuggestionChange {
  id: string;
  from: number;
  to: number;
  source: string;
  authorName: string;
}

function suggestionMarkOf(node: PmNode, types: { insertion: MarkType; deletion: MarkType }) {
  return node.marks.find((mark) => mark.type === types.insertion || mark.type === types.deletion);
}

/** Every pending change of the document (or of one block), in document order. */
export function findSuggestionChanges(
  editor: Editor,
  within?: { from: number; to: number },
): SuggestionChange[] {
  const types = suggestionTypes(editor);
  const changes: SuggestionChange[] = [];
  const doc = editor.state.doc;
  doc.nodesBetween(within?.from ?? 0, within?.to ?? doc.content.size, (node, pos) => {
    if (!node.isText) return true;
    const mark = suggestionMarkOf(node, types);
    if (!mark) return false;
    const id = String(mark.attrs.id ?? '');
    const last = changes.at(-1);
    if (last && last.id === id && last.to === pos) last.to = pos + node.nodeSize;
    else
      changes.push({
        id,
        from: pos,
        to: pos + node.nodeSize,
        source: String(mark.attrs.source ?? ''),
        authorName: String(mark.attrs.author_name ?? ''),
      });
    return false;
  });
  return changes;
}

/** The change at a position (the caret), looking only at its block. */
export function suggestionChangeAt(editor: Editor, position: number): SuggestionChange | undefined {
  const $position = editor.state.doc.resolve(position);
  if (!$position.parent.isTextblock) return undefined;
  const block = { from: $position.start(), to: $position.end() };
  return findSuggestionChanges(editor, block).find(
    (change) => change.from <= position && position <= change.to,
  );
}

/**
 * Accepts or rejects pending changes as one undo step: those of a group (`id`), those inside a range, or
 * all. Accepting keeps inserted text and removes deleted text; rejecting does the opposite.
 */
export function decideSuggestionsInEditor(
  editor: Editor,
  decision: SuggestionDecision,
  scope: { id?: string; from?: number; to?: number } = {},
): boolean {
  const types = suggestionTypes(editor);
  const removed = decision === 'accept' ? types.deletion : types.insertion;
  const doc = editor.state.doc;
  const from = scope.from ?? 0;
  const to = scope.to ?? doc.content.size;
  const unmark: { from: number; to: number; type: MarkType }[] = [];
  const remove: { from: number; to: number }[] = [];
  doc.nodesBetween(from, to, (node, pos) => {
    if (!node.isText) return true;
    const mark = suggestionMarkOf(node, types);
    if (!mark || (scope.id !== undefined && mark.attrs.id !== scope.id)) return false;
    const span = { from: Math.max(from, pos), to: Math.min(to, pos + node.nodeSize) };
    if (mark.type === removed) remove.push(span);
    else unmark.push({ ...span, type: mark.type });
    return false;
  });
  if (unmark.length === 0 && remove.length === 0) return false;
  return asOneUndoStep(editor, () =>
    editor
      .chain()
      .command(({ tr }) => {
        closeHistory(tr);
        tr.setMeta(SUGGESTION_OPERATION, true);
        for (const span of unmark) tr.removeMark(span.from, span.to, span.type);
        for (const span of remove.reverse()) tr.delete(span.from, span.to);
        return true;
      })
      .run(),
  );
}
