import type { Node as ProseMirrorNode } from '@tiptap/pm/model';

/**
 * A section of the document: a top-level heading and everything after it until the next top-level heading of
 * the same or a higher level (a chapter holds its scenes). Headings inside lists, quotes or tables are part of
 * their block's text, not sections: a book's chapters and scenes are headings of the document itself.
 */
export interface OutlineSection {
  /** Its place in document order (the outline's flat list). */
  index: number;
  level: number;
  /** The heading's text ('' for an empty heading: the panel names it "Untitled section"). */
  text: string;
  /** The heading node's position in the document. */
  pos: number;
  /** Where the section ends (the next heading of the same or a higher level, or the end of the document). */
  end: number;
  /** The enclosing section (the nearest heading before it of a higher level), or null at the top. */
  parent: number | null;
  /** Depth in the tree: 0 at the top (a level-2 heading under no level-1 heading is at the top too). */
  depth: number;
  hasChildren: boolean;
  /** Words of the heading and everything under it, subsections included. */
  words: number;
}

export interface Outline {
  sections: OutlineSection[];
  /** Words of the whole document (text before the first heading included). */
  totalWords: number;
}

/** Words of one top-level block (the editor's live counter, so the sections add up to the header's total). */
export type BlockWordCounter = (block: ProseMirrorNode) => number;

export function buildOutline(doc: ProseMirrorNode, countBlockWords: BlockWordCounter): Outline {
  const sections: OutlineSection[] = [];
  // Words before each top-level block: a section's words are a difference of two of these.
  const wordsBefore: number[] = [];
  const startBlock: number[] = [];
  const open: OutlineSection[] = [];
  let total = 0;
  doc.forEach((block, offset, blockIndex) => {
    wordsBefore.push(total);
    if (block.type.name === 'heading') {
      const level = Number(block.attrs.level) || 1;
      while (open.length > 0 && open.at(-1)!.level >= level) closeSection(open.pop()!, offset, blockIndex);
      const parent = open.at(-1) ?? null;
      if (parent) parent.hasChildren = true;
      const section: OutlineSection = {
        index: sections.length,
        level,
        text: block.textContent.trim(),
        pos: offset,
        end: doc.content.size,
        parent: parent?.index ?? null,
        depth: parent ? parent.depth + 1 : 0,
        hasChildren: false,
        words: 0,
      };
      startBlock.push(blockIndex);
      sections.push(section);
      open.push(section);
    }
    total += countBlockWords(block);
  });
  wordsBefore.push(total);
  for (const section of open) closeSection(section, doc.content.size, doc.childCount);
  return { sections, totalWords: total };

  function closeSection(section: OutlineSection, end: number, endBlock: number) {
    section.end = end;
    section.words = wordsBefore[endBlock]! - wordsBefore[startBlock[section.index]!]!;
  }
}

/** The innermost section holding a position (the last heading at or before it), or null before any heading. */
export function sectionAt(sections: readonly OutlineSection[], pos: number): OutlineSection | null {
  let low = 0;
  let high = sections.length - 1;
  let found: OutlineSection | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const section = sections[middle]!;
    if (section.pos <= pos) {
      found = section;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return found && pos < found.end ? found : null;
}

/** Whether the section is hidden in the tree because one of its enclosing sections is collapsed. */
export function isHiddenByCollapse(
  sections: readonly OutlineSection[],
  section: OutlineSection,
  collapsed: ReadonlySet<number>,
): boolean {
  for (let parent = section.parent; parent !== null; parent = sections[parent]!.parent) {
    if (collapsed.has(sections[parent]!.pos)) return true;
  }
  return false;
}
