import { diffArrays, diffWordsWithSpace } from 'diff';
import type { RichTextDoc, RichTextNode } from '../schemas/richText';

/**
 * Word-level differences between two rich-text documents, for the history view ("this version against the
 * current document") and for anything else that shows a change as insertions and deletions inline (AI
 * suggestions as tracked changes). Built on the `diff` package: blocks are aligned first (diffArrays over
 * their type and text), then each replaced block is compared word by word (diffWordsWithSpace), so an edit
 * inside one paragraph never shows the whole paragraph as deleted and re-inserted.
 */

type ChangeKind = 'equal' | 'insert' | 'delete';

/** A run of text that is in both versions, only in the newer one, or only in the older one. */
export interface TextChange {
  kind: ChangeKind;
  text: string;
}

/** Where a block sits: list items and quotes are shown as such in the diff. */
type BlockContainer = 'bulletList' | 'orderedList' | 'blockquote' | null;

/**
 * What a reader sees of a block's formatting: its alignment, and each style (a font, a size, a colour, bold, a
 * link…) with the text it covers. A restore brings all of it back, so the diff shows where it differs.
 */
interface BlockFormatting {
  /** left, center, right or justify ('left' when unset, as the editor shows it). */
  align: string;
  /** Style label ('Font Georgia', 'Bold', 'Link https://…') → the text it covers, runs joined by ' … '. */
  styles: Record<string, string>;
}

/** One block of a document reduced to what a reader compares: its kind, its plain text and its formatting. */
export interface DocumentBlock {
  /** paragraph, heading, codeBlock or horizontalRule */
  type: string;
  /** Heading level, when `type` is heading. */
  level?: number;
  container: BlockContainer;
  /** A list item's marker as the editor draws it ('•', or '3.' counted from the list's start), on its first block. */
  marker?: string;
  text: string;
  formatting: BlockFormatting;
}

/** One formatting difference of a changed block: a style or the alignment, in this version and now. */
export interface FormattingChange {
  /** 'Alignment', or a style label such as 'Font Georgia', 'Size 24px', 'Colour #ef4444', 'Bold'. */
  label: string;
  /** The alignment, or the text the style covers; null when the style is absent on that side. */
  before: string | null;
  after: string | null;
}

/** A block of the diff: unchanged, wholly inserted, wholly deleted, or changed (its words compared). */
export interface BlockDiff {
  kind: ChangeKind | 'change';
  block: DocumentBlock;
  parts: TextChange[];
  /** For a changed block: how its formatting differs (empty when only its words changed). */
  formatting: FormattingChange[];
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

const STYLE_MARKS: Record<string, string> = {
  bold: 'Bold',
  italic: 'Italic',
  underline: 'Underline',
  strike: 'Strikethrough',
  code: 'Code',
};

const TEXT_STYLES: [attribute: string, label: string][] = [
  ['fontFamily', 'Font'],
  ['fontSize', 'Size'],
  ['color', 'Colour'],
];

/** The styles one run of text carries, as labels. */
function runStyles(node: RichTextNode): string[] {
  const labels: string[] = [];
  for (const mark of node.marks ?? []) {
    const simple = STYLE_MARKS[mark.type];
    if (simple) labels.push(simple);
    else if (mark.type === 'link' && typeof mark.attrs?.href === 'string')
      labels.push(`Link ${mark.attrs.href}`);
    else if (mark.type === 'textStyle') {
      for (const [attribute, label] of TEXT_STYLES) {
        const value = mark.attrs?.[attribute];
        if (typeof value === 'string' && value !== '') labels.push(`${label} ${value}`);
      }
    }
  }
  return labels;
}

function blockFormatting(node: RichTextNode): BlockFormatting {
  const runs: Record<string, string[]> = {};
  let previous = new Set<string>();
  const visit = (parent: RichTextNode) => {
    for (const child of parent.content ?? []) {
      if (child.type !== 'text') {
        visit(child);
        continue;
      }
      const labels = new Set(runStyles(child));
      for (const label of labels) {
        const list = (runs[label] ??= []);
        // Adjacent runs with the same style read as one stretch of text.
        if (previous.has(label)) list[list.length - 1] += child.text ?? '';
        else list.push(child.text ?? '');
      }
      previous = labels;
    }
  };
  visit(node);
  const styles: Record<string, string> = {};
  for (const [label, list] of Object.entries(runs)) styles[label] = list.join(' … ');
  const align = node.attrs?.textAlign;
  return { align: typeof align === 'string' && align !== '' ? align : 'left', styles };
}

const NO_FORMATTING: BlockFormatting = { align: 'left', styles: {} };

/** The document's blocks in reading order (lists and quotes flattened to their paragraphs). */
export function documentBlocks(doc: RichTextDoc | { content?: RichTextNode[] }): DocumentBlock[] {
  const blocks: DocumentBlock[] = [];
  let marker: string | undefined;
  const walk = (nodes: readonly RichTextNode[], container: BlockContainer) => {
    for (const node of nodes) {
      if (TEXT_BLOCKS.has(node.type)) {
        const level = node.type === 'heading' ? Number(node.attrs?.level ?? 1) : undefined;
        blocks.push({
          type: node.type,
          ...(level ? { level } : {}),
          container,
          ...(marker ? { marker } : {}),
          text: inlineText(node),
          formatting: blockFormatting(node),
        });
        marker = undefined;
      } else if (node.type === 'horizontalRule') {
        blocks.push({ type: 'horizontalRule', container, text: '', formatting: NO_FORMATTING });
      } else if (node.type === 'bulletList' || node.type === 'orderedList') {
        const start = Number(node.attrs?.start ?? 1) || 1;
        (node.content ?? []).forEach((item, index) => {
          marker = node.type === 'orderedList' ? `${start + index}.` : '•';
          walk(item.content ?? [], node.type as BlockContainer);
          marker = undefined;
        });
      } else if (node.type === 'blockquote') {
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
function documentPlainText(doc: RichTextDoc | { content?: RichTextNode[] }): string {
  return documentBlocks(doc)
    .map((block) => block.text)
    .join('\n');
}

/** Words of a document, split on whitespace as the editor's statistics count them. */
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

/** How a block's formatting differs between this version and now; empty when it does not. */
function diffFormatting(before: BlockFormatting, after: BlockFormatting): FormattingChange[] {
  const changes: FormattingChange[] = [];
  if (before.align !== after.align) {
    changes.push({ label: 'Alignment', before: before.align, after: after.align });
  }
  const labels = new Set([...Object.keys(before.styles), ...Object.keys(after.styles)]);
  for (const label of [...labels].sort()) {
    const was = before.styles[label] ?? null;
    const now = after.styles[label] ?? null;
    if (was !== now) changes.push({ label, before: was, after: now });
  }
  return changes;
}

const sameShape = (a: DocumentBlock, b: DocumentBlock) =>
  a.type === b.type && a.level === b.level && a.container === b.container;
// A list item's number is not compared: an item added above would otherwise mark every later item as changed.
const sameBlock = (a: DocumentBlock, b: DocumentBlock) =>
  sameShape(a, b) && a.text === b.text && diffFormatting(a.formatting, b.formatting).length === 0;

const whole = (kind: ChangeKind, block: DocumentBlock): BlockDiff => ({
  kind,
  block,
  parts: block.text ? [{ kind, text: block.text }] : [],
  formatting: [],
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
      const was = removed[i]!;
      result.push({
        kind: 'change',
        block: now,
        parts: diffText(was.text, now.text),
        formatting: diffFormatting(was.formatting, now.formatting),
      });
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
