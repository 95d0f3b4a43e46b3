import type { Editor, JSONContent } from '@tiptap/core';
import { closeHistory } from '@tiptap/pm/history';
import type { Node as PmNode } from '@tiptap/pm/model';
import type { Transaction } from '@tiptap/pm/state';
import {
  absolutePositionToRelativePosition,
  relativePositionToAbsolutePosition,
  ySyncPluginKey,
  yUndoPluginKey,
} from '@tiptap/y-tiptap';
import type { GrammarChange } from '@shared/schemas/ai';

/**
 * How AI answers reach the document. An answer is anchored to the text it was asked about with Yjs relative
 * positions (they survive local typing and remote edits, which y-prosemirror applies as whole-document
 * replacements that ProseMirror mappings cannot follow). Applying is one transaction between two undo
 * boundaries, so Ctrl+Z undoes exactly the AI change. Nothing is written while an answer streams.
 */

const BLOCK_SEPARATOR = '\n\n';

export interface TextWithPositions {
  text: string;
  /** Document position of each character of `text`; -1 for block separators. */
  positions: number[];
}

/** The text between two positions, blocks separated by a blank line, with each character's position. */
export function textWithPositions(doc: PmNode, from: number, to: number): TextWithPositions {
  let text = '';
  const positions: number[] = [];
  let lastBlockEnd = -1;
  doc.nodesBetween(from, to, (node, pos) => {
    if (node.isTextblock) {
      if (lastBlockEnd >= 0) {
        text += BLOCK_SEPARATOR;
        positions.push(...Array.from({ length: BLOCK_SEPARATOR.length }, () => -1));
      }
      lastBlockEnd = pos + node.nodeSize;
      return true;
    }
    if (node.isText && node.text) {
      const start = Math.max(from, pos);
      const end = Math.min(to, pos + node.nodeSize);
      for (let p = start; p < end; p++) positions.push(p);
      text += node.text.slice(start - pos, end - pos);
      return false;
    }
    if (node.type.name === 'hardBreak') {
      text += '\n';
      positions.push(-1);
    }
    return true;
  });
  return { text, positions };
}

export function selectedText(editor: Editor): { from: number; to: number; text: string } | null {
  const { from, to, empty } = editor.state.selection;
  if (empty) return null;
  const { text } = textWithPositions(editor.state.doc, from, to);
  return text.trim() ? { from, to, text } : null;
}

/**
 * The paragraph a command without a selection works on: the text block at the caret, or, when that one is
 * empty (a command typed on a new line), the nearest block with text before it.
 */
export function paragraphAtCursor(editor: Editor): { from: number; to: number; text: string } | null {
  const { doc, selection } = editor.state;
  const { $from } = selection;
  if ($from.parent.isTextblock && $from.parent.textContent.trim()) {
    const from = $from.start();
    const to = $from.end();
    return { from, to, text: textWithPositions(doc, from, to).text };
  }
  let found: { from: number; to: number } | null = null;
  doc.nodesBetween(0, $from.pos, (node, pos) => {
    if (!node.isTextblock) return true;
    if (pos + node.nodeSize <= $from.pos && node.textContent.trim())
      found = { from: pos + 1, to: pos + node.nodeSize - 1 };
    return false;
  });
  if (!found) return null;
  const { from, to } = found;
  return { from, to, text: textWithPositions(doc, from, to).text };
}

/** Text before the cursor (for "Continue Writing" without a selection), at most `max` characters. */
export function textBeforeCursor(editor: Editor, max = 4_000): { pos: number; text: string } | null {
  const pos = editor.state.selection.to;
  const { text } = textWithPositions(editor.state.doc, 0, pos);
  const trimmed = text.slice(-max);
  return trimmed.trim() ? { pos, text: trimmed } : null;
}

interface YSyncState {
  doc: unknown;
  type: unknown;
  binding: { mapping: unknown } | null;
}

function ySync(editor: Editor): YSyncState | null {
  const state = ySyncPluginKey.getState(editor.state) as YSyncState | undefined;
  return state?.binding ? state : null;
}

/** A range that follows the document while the writer (or a collaborator) keeps editing. */
export class Anchor {
  readonly originalText: string;
  private readonly editor: Editor;
  private relative: { from: unknown; to: unknown } | null = null;
  private mapped: { from: number; to: number } | null = null;
  private readonly onTransaction?: (props: { transaction: Transaction }) => void;

  constructor(editor: Editor, from: number, to: number, originalText: string) {
    this.editor = editor;
    this.originalText = originalText;
    const sync = ySync(editor);
    if (sync) {
      const mapping = sync.binding!.mapping as Parameters<typeof absolutePositionToRelativePosition>[2];
      const type = sync.type as Parameters<typeof absolutePositionToRelativePosition>[1];
      this.relative = {
        from: absolutePositionToRelativePosition(from, type, mapping),
        to: absolutePositionToRelativePosition(to, type, mapping),
      };
    } else {
      // No collaboration (tests, a plain editor): follow the range through ProseMirror's mappings.
      this.mapped = { from, to };
      this.onTransaction = ({ transaction }) => {
        if (!this.mapped || !transaction.docChanged) return;
        this.mapped = {
          from: transaction.mapping.map(this.mapped.from, 1),
          to: transaction.mapping.map(this.mapped.to, -1),
        };
      };
      editor.on('transaction', this.onTransaction);
    }
  }

  /** The current range, or null if the anchored text was deleted. */
  resolve(): { from: number; to: number } | null {
    if (this.editor.isDestroyed) return null;
    if (this.relative) {
      const sync = ySync(this.editor);
      if (!sync) return null;
      type Args = Parameters<typeof relativePositionToAbsolutePosition>;
      const from = relativePositionToAbsolutePosition(
        sync.doc as Args[0],
        sync.type as Args[1],
        this.relative.from,
        sync.binding!.mapping as Args[3],
      );
      const to = relativePositionToAbsolutePosition(
        sync.doc as Args[0],
        sync.type as Args[1],
        this.relative.to,
        sync.binding!.mapping as Args[3],
      );
      if (from === null || to === null || to < from) return null;
      return { from, to };
    }
    return this.mapped && this.mapped.to >= this.mapped.from ? { ...this.mapped } : null;
  }

  /** The anchored text now (null when it is gone). */
  currentText(): string | null {
    const range = this.resolve();
    if (!range) return null;
    return textWithPositions(this.editor.state.doc, range.from, range.to).text;
  }

  /** True while the text the answer was asked about is unchanged. */
  isIntact(): boolean {
    return this.currentText() === this.originalText;
  }

  dispose(): void {
    if (this.onTransaction) this.editor.off('transaction', this.onTransaction);
  }
}

export function anchorSelection(editor: Editor): Anchor | null {
  const selection = selectedText(editor);
  if (!selection) return null;
  return new Anchor(editor, selection.from, selection.to, selection.text);
}

/** Starts and ends a separate undo step around `fn` (Yjs UndoManager or ProseMirror history). */
export function asOneUndoStep(editor: Editor, fn: () => boolean): boolean {
  const undo = (
    yUndoPluginKey.getState(editor.state) as { undoManager?: { stopCapturing(): void } } | undefined
  )?.undoManager;
  undo?.stopCapturing();
  const done = fn();
  undo?.stopCapturing();
  return done;
}

type MarkdownModule = typeof import('@tiptap/markdown');
let markdownModule: MarkdownModule | null = null;
let markdownLoading: Promise<MarkdownModule> | null = null;

/**
 * The Markdown parser for AI answers (@tiptap/markdown with marked, ≈ 27 KB gzip) is not part of the editor's
 * first load: the editor page fetches it once it is idle, long before any answer can arrive.
 */
export function loadMarkdown(): Promise<MarkdownModule> {
  markdownLoading ??= import('@tiptap/markdown').then((module) => (markdownModule = module));
  return markdownLoading;
}

const managers = new WeakMap<Editor, InstanceType<MarkdownModule['MarkdownManager']>>();
export function markdownToJson(editor: Editor, markdown: string): JSONContent {
  if (!markdownModule) {
    // Only if an answer beat the parser's download: keep every word, one paragraph per block of lines.
    void loadMarkdown();
    return plainTextToJson(markdown);
  }
  let manager = managers.get(editor);
  if (!manager) {
    manager = new markdownModule.MarkdownManager({ extensions: editor.extensionManager.extensions });
    managers.set(editor, manager);
  }
  return manager.parse(markdown);
}

function plainTextToJson(text: string): JSONContent {
  return {
    type: 'doc',
    content: text
      .split(/\n\s*\n/)
      .map((block) => block.trim())
      .filter(Boolean)
      .map((block) => ({ type: 'paragraph', content: [{ type: 'text', text: block }] })),
  };
}

/** Whether an answer needs block structure (paragraphs, lists, headings) rather than inline text. */
export function isBlockAnswer(text: string): boolean {
  return /\n\s*\n/.test(text.trim()) || /^(#{1,6}\s|[-*+]\s|\d+[.)]\s|>\s|```)/m.test(text.trim());
}

/** replace the range; insert `after` it as new blocks; or `append` inline right after it (plain answers). */
export type ApplyMode = 'replace' | 'after' | 'append';

/**
 * Writes an answer at a range as ONE undo step: replaces it, or inserts after it. Plain answers keep the
 * surrounding formatting; Markdown answers become nodes through the editor's own Markdown parser.
 */
export function applyAnswer(
  editor: Editor,
  range: { from: number; to: number },
  answer: string,
  mode: ApplyMode,
) {
  const text = answer.trim();
  const from = mode === 'replace' ? range.from : range.to;
  const to = range.to;
  const block = isBlockAnswer(text);
  return asOneUndoStep(editor, () => {
    if (!block && (mode === 'replace' || mode === 'append')) {
      const before =
        mode === 'append' && from > 0 ? editor.state.doc.textBetween(from - 1, from, '\n', '\n') : '';
      const spaced = before && !/\s/.test(before) ? ` ${text}` : text;
      return editor
        .chain()
        .command(({ tr }) => {
          closeHistory(tr);
          tr.insertText(spaced, from, to);
          return true;
        })
        .run();
    }
    const json = markdownToJson(editor, text);
    const content = (json.content ?? []).filter(Boolean);
    // Inserting after a range inside a paragraph: start the answer in a new block after that block.
    const $to = editor.state.doc.resolve(to);
    const after = mode !== 'replace';
    const at = after && $to.depth >= 1 ? $to.after(1) : to;
    return editor
      .chain()
      .command(({ tr }) => {
        closeHistory(tr);
        return true;
      })
      .insertContentAt(after ? at : { from, to }, content, { updateSelection: true })
      .run();
  });
}

/**
 * Where a grammar change (offsets into `source.text`) lies in `doc` now, or null when it cannot be applied
 * there: it must lie in one text run (no block separator inside it) and still read as the checked original.
 */
export function grammarChangeRange(
  doc: PmNode,
  source: TextWithPositions,
  change: GrammarChange,
): { from: number; to: number } | null {
  const first = source.positions[change.offset];
  const last = source.positions[change.offset + change.length - 1];
  if (first === undefined || last === undefined || first < 0 || last < 0) return null;
  if (last - first !== change.length - 1) return null;
  if (doc.textBetween(first, last + 1) !== change.original) return null;
  return { from: first, to: last + 1 };
}

/** Grammar changes last first, so that applying one leaves the positions of those before it valid. */
export const lastChangeFirst = (changes: GrammarChange[]): GrammarChange[] =>
  [...changes].sort((a, b) => b.offset - a.offset);

/** Applies grammar changes (offsets into `source.text`) inside the document as one undo step. */
export function applyGrammarChanges(
  editor: Editor,
  source: TextWithPositions,
  changes: GrammarChange[],
): number {
  let applied = 0;
  asOneUndoStep(editor, () =>
    editor
      .chain()
      .command(({ tr }) => {
        closeHistory(tr);
        for (const change of lastChangeFirst(changes)) {
          const range = grammarChangeRange(tr.doc, source, change);
          if (!range) continue;
          tr.insertText(change.replacement, range.from, range.to);
          applied += 1;
        }
        return applied > 0;
      })
      .run(),
  );
  return applied;
}
