import { diffArrays, diffWordsWithSpace } from 'diff';
import type { RichTextDoc, RichTextNode } from '../schemas/richText';

/**
 * Word-level differences between two rich-text documents, for the history view ("this version against the
 * current document") and for anything else that shows a change as insertions and deletions inline (AI
 * suggestions as tracked changes). Built on the `diff` package: blocks are aligned first (diffArrays over
 * their type and text), then each replaced block is compared word by word (diffWordsWithSpace), so an edit
 * inside one paragraph never shows the whole paragraph as deleted and re-inserted.
 */

export type ChangeKind = 'equal' | 'insert' | 'delete';

/** A run of text that is in both versions, only in the newer one, or only in the older one. */
export interface TextChange {
  kind: ChangeKind;
  text: string;
}

/** Where a block sits: list items and quotes are shown as such in the diff. */
export type BlockContainer = 'bulletList' | 'orderedList' | 'blockquote' | null;

/** One block of a document reduced to what a reader compares: its kind and its plain text. */
export interface DocumentBlock {
  /** paragraph, heading, codeBlock or horizontalRule */
  type: string;
  /** Heading level, when `type` is heading. */
  level?: number;
  container: BlockContainer;
  text: string;
}

/** A block of the diff: unchanged, wholly inserted, wholly deleted, or changed (its words compared). */
export interface BlockDiff {
  kind: ChangeKind | 'change';
  block: DocumentBlock;
  parts: TextChange[];
}

const TEXT_BLOCKS = new Set(['paragraph', 'heading', 'codeBlock']);

function inlineText(node: RichTextNode): string {
  let text = '';
  for (const child of node.content ?? []) {
    if (child.type === 'text') text += child.text ?? '';
    else if (child.type === 'hardBreak') text += '\n';
    else text += inlineText(child);
  }
  return text;
}

/** The document's blocks in reading order (lists and quotes flattened to their paragraphs). */
export function documentBlocks(doc: RichTextDoc | { content?: RichTextNode[] }): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  const walk = (nodes: readonly RichTextNode[], container: BlockContainer) => {
    for (const node of nodes) {
      if (TEXT_BLOCKS.has(node.type)) {
        const level = node.type === 'heading' ? Number(node.attrs?.level ?? 1) : undefined;
        blocks.push({ type: node.type, ...(level ? { level } : {}), container, text: inlineText(node) });
      } else if (node.type === 'horizontalRule') {
        blocks.push({ type: 'horizontalRule', container, text: '' });
      } else if (node.type === 'bulletList' || node.type === 'orderedList' || node.type === 'blockquote') {
        walk(node.content ?? [], node.type);
      } else {
        walk(node.content ?? [], container);
      }
    }
  };
  walk(doc.content ?? [], null);
  return blocks;
}

/** The document's text, one line per block (what word counts and plain-text comparisons read). */
export function documentPlainText(doc: RichTextDoc | { content?: RichTextNode[] }): string {
  return documentBlocks(doc)
    .map((block) => block.text)
    .join('\n');
}

/** Words of a document, split on whitespace as the editor's statistics count them (SPEC §5). */
export function documentWordCount(doc: RichTextDoc | { content?: RichTextNode[] }): number {
  const text = documentPlainText(doc).trim();
  return text === '' ? 0 : text.split(/\s+/u).length;
}

/** Word-level changes turning `before` into `after`; whitespace is kept so the parts join back to either. */
export function diffText(before: string, after: string): TextChange[] {
  return diffWordsWithSpace(before, after).map((change) => ({
    kind: change.added ? 'insert' : change.removed ? 'delete' : 'equal',
    text: change.value,
  }));
}

const sameShape = (a: DocumentBlock, b: DocumentBlock) =>
  a.type === b.type && a.level === b.level && a.container === b.container;
const sameBlock = (a: DocumentBlock, b: DocumentBlock) => sameShape(a, b) && a.text === b.text;

const whole = (kind: ChangeKind, block: DocumentBlock): BlockDiff => ({
  kind,
  block,
  parts: block.text ? [{ kind, text: block.text }] : [],
});

/**
 * The changes that turn `before` into `after`, block by block in the order of `after` (deleted blocks
 * appear where they were). A run of deleted blocks followed by inserted ones is paired up in order and
 * each pair compared word by word; extra blocks on either side stay whole insertions or deletions.
 */
export function diffDocuments(
  before: RichTextDoc | { content?: RichTextNode[] },
  after: RichTextDoc | { content?: RichTextNode[] },
): BlockDiff[] {
  const changes = diffArrays(documentBlocks(before), documentBlocks(after), { comparator: sameBlock });
  const result: BlockDiff[] = [];
  for (let index = 0; index < changes.length; index++) {
    const change = changes[index]!;
    if (!change.added && !change.removed) {
      for (const block of change.value) result.push(whole('equal', block));
      continue;
    }
    const next = changes[index + 1];
    const removed = change.removed ? change.value : [];
    const added = change.added ? change.value : next?.added && change.removed ? next.value : [];
    if (change.removed && next?.added) index++;
    const paired = Math.min(removed.length, added.length);
    for (let i = 0; i < paired; i++) {
      // A block that changed kind (paragraph → heading) keeps its words compared; its new kind is shown.
      const now = added[i]!;
      result.push({ kind: 'change', block: now, parts: diffText(removed[i]!.text, now.text) });
    }
    for (const block of removed.slice(paired)) result.push(whole('delete', block));
    for (const block of added.slice(paired)) result.push(whole('insert', block));
  }
  return result;
}

/** Whether a diff shows any change at all. */
export function hasChanges(diff: readonly BlockDiff[]): boolean {
  return diff.some((block) => block.kind !== 'equal');
}
