import type { Node as PmNode } from '@tiptap/pm/model';
import type { EditorState } from '@tiptap/pm/state';
import {
  COMMENT_QUOTE_CONTEXT_LENGTH,
  MAX_COMMENT_QUOTE_LENGTH,
  type CommentAnchor,
} from '@shared/schemas/comments';

/** The mark the server puts over a commented passage (src/shared/editor). */
export const COMMENT_MARK = 'comment';

/** Between blocks, the quote and its context read as separate lines. */
const BLOCK_SEPARATOR = '\n';

/**
 * The selection as a thread's anchor: its text, up to COMMENT_QUOTE_CONTEXT_LENGTH characters before and after
 * it, and its positions. Null for an empty selection or one without text (an image alone).
 */
export function selectionAnchor(state: EditorState): CommentAnchor | null {
  const { from, to, empty } = state.selection;
  if (empty) return null;
  const { doc } = state;
  const quote = doc.textBetween(from, to, BLOCK_SEPARATOR, ' ').slice(0, MAX_COMMENT_QUOTE_LENGTH);
  if (!quote.trim()) return null;
  // Enough of the document to hold the context even where positions are spent on block boundaries.
  const reach = COMMENT_QUOTE_CONTEXT_LENGTH * 4;
  const prefix = doc
    .textBetween(Math.max(0, from - reach), from, BLOCK_SEPARATOR, ' ')
    .slice(-COMMENT_QUOTE_CONTEXT_LENGTH);
  const suffix = doc
    .textBetween(to, Math.min(doc.content.size, to + reach), BLOCK_SEPARATOR, ' ')
    .slice(0, COMMENT_QUOTE_CONTEXT_LENGTH);
  return { quote, prefix, suffix, from, to };
}

/** The thread ids of the comment marks on a node. */
export function commentThreadIds(node: PmNode): string[] {
  const ids: string[] = [];
  for (const mark of node.marks) {
    if (mark.type.name === COMMENT_MARK && typeof mark.attrs.threadId === 'string')
      ids.push(mark.attrs.threadId);
  }
  return ids;
}

/** Where each thread's passage starts and ends in the document (its first and last marked text). */
export function threadRanges(doc: PmNode): Map<string, { from: number; to: number }> {
  const ranges = new Map<string, { from: number; to: number }>();
  if (!doc.type.schema.marks[COMMENT_MARK]) return ranges;
  doc.descendants((node, pos) => {
    if (!node.isText) return true;
    for (const id of commentThreadIds(node)) {
      const range = ranges.get(id);
      if (range) range.to = pos + node.nodeSize;
      else ranges.set(id, { from: pos, to: pos + node.nodeSize });
    }
    return false;
  });
  return ranges;
}
