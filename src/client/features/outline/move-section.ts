import type { EditorState, Transaction } from '@tiptap/pm/state';
import { TextSelection } from '@tiptap/pm/state';
import type { OutlineSection } from './outline';

export type Placement = 'before' | 'after';

/** Where a section lands when dropped before or after another (after: after all of it, subsections too). */
export function dropTarget(target: OutlineSection, placement: Placement): number {
  return placement === 'before' ? target.pos : target.end;
}

/**
 * Where Alt+↑ / Alt+↓ move a section: past its neighbour of the same level, or, at the edge of its enclosing
 * section, into the neighbouring one (the last scene of a chapter goes down into the next chapter, before its
 * first scene; the first scene of a chapter goes up to the end of the previous one). Null at the document's
 * edge.
 */
export function keyboardTarget(
  sections: readonly OutlineSection[],
  section: OutlineSection,
  direction: 'up' | 'down',
): number | null {
  if (direction === 'up') {
    for (let index = section.index - 1; index >= 0; index -= 1) {
      const previous = sections[index]!;
      // The sibling before it, or (when it is the first of its parent) the parent, whose heading it goes before.
      if (previous.level <= section.level) return previous.pos;
    }
    return null;
  }
  const next = sections.find((candidate) => candidate.pos === section.end);
  if (!next) return null;
  if (next.level === section.level) return next.end;
  // The next section encloses headings of its own: the moved one goes before the first of its level or higher.
  const firstOfLevel = sections.find(
    (candidate) => candidate.pos > next.pos && candidate.pos < next.end && candidate.level <= section.level,
  );
  return firstOfLevel?.pos ?? next.end;
}

/**
 * Moves a section (its heading and everything under it) to a position between top-level blocks, as ONE
 * transaction: the section is cut and inserted at the target, so it is one undo step and, through the
 * collaboration binding, one change every collaborator receives. The caret goes to the start of the moved
 * heading. Null when the target is inside the section or at its edge (nothing would move).
 */
export function moveSection(
  state: EditorState,
  section: Pick<OutlineSection, 'pos' | 'end'>,
  target: number,
): Transaction | null {
  if (target >= section.pos && target <= section.end) return null;
  if (target < 0 || target > state.doc.content.size) return null;
  const $target = state.doc.resolve(target);
  if ($target.depth !== 0) return null;
  const content = state.doc.slice(section.pos, section.end).content;
  const tr = state.tr.delete(section.pos, section.end);
  const at = tr.mapping.map(target);
  tr.insert(at, content);
  tr.setSelection(TextSelection.near(tr.doc.resolve(at + 1)));
  return tr;
}
