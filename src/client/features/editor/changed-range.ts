import type { Node as PmNode } from '@tiptap/pm/model';
import { StepMap } from '@tiptap/pm/transform';

/**
 * The part of the document a transaction changed, as one step map. Computed from the documents rather than
 * from the transaction's steps because y-prosemirror applies every remote change as a replacement of the
 * whole document: mapped through its steps, every underline would vanish and every paragraph be re-checked.
 */
export function changedRange(
  before: PmNode,
  after: PmNode,
): { map: StepMap; from: number; to: number } | null {
  const start = before.content.findDiffStart(after.content);
  if (start === null) return null;
  const end = before.content.findDiffEnd(after.content) ?? { a: before.content.size, b: after.content.size };
  let { a: endA, b: endB } = end;
  // With repeated text the two scans can cross; move the end forward so the range is well-formed.
  const overlap = start - Math.min(endA, endB);
  if (overlap > 0) {
    endA += overlap;
    endB += overlap;
  }
  return { map: new StepMap([start, endA - start, endB - start]), from: start, to: endB };
}
