import type { RichTextDoc, RichTextMark, RichTextNode } from '../../shared/schemas/richText';
import { diffText } from '../../shared/diff/document-diff';
import type { SuggestionAttributes } from '../../shared/editor/suggestion-marks';

/**
 * An agent's changes as tracked changes (the `insertion` and `deletion` marks of the editor schema, the same
 * marks the AI's answers and Suggesting mode write), so the document's owner accepts or rejects each one.
 * Pure: stored JSON in, new JSON out; the caller writes it through the document writer.
 */

/** Stands for what a search may not match across: a hard break, an image, text already in a suggestion. */
const BARRIER = '\uFFFC';
const SUGGESTION_MARKS = new Set(['insertion', 'deletion']);

const isSuggestionMarked = (node: RichTextNode) =>
  (node.marks ?? []).some((mark) => SUGGESTION_MARKS.has(mark.type));

function isTextblock(node: RichTextNode): boolean {
  return (node.content ?? []).some((child) => child.type === 'text');
}

/** The text of a textblock as a search sees it: one character per character, a barrier for anything else. */
function searchableText(block: RichTextNode): string {
  return (block.content ?? [])
    .map((child) =>
      child.type === 'text' && !isSuggestionMarked(child)
        ? (child.text ?? '')
        : BARRIER.repeat(child.text?.length ?? 1),
    )
    .join('');
}

function occurrences(text: string, find: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(find); at !== -1; at = text.indexOf(find, at + 1)) found.push(at);
  return found;
}

export type ProposeResult =
  { ok: true; doc: RichTextDoc } | { ok: false; reason: 'not_found' | 'ambiguous'; count: number };

interface Replacement {
  from: number;
  to: number;
  text: string;
}

/**
 * The replacement as word-level changes (the version history's word diff), so "the quick brown fox" →
 * "the quick red fox" marks only "brown" for deletion and inserts "red", as the AI's suggestions do.
 * Offsets are within `find`.
 */
function wordChanges(find: string, replace: string): Replacement[] {
  const changes: Replacement[] = [];
  let at = 0;
  let open: Replacement | undefined;
  for (const part of diffText(find, replace)) {
    if (part.kind === 'equal') {
      if (open) changes.push(open);
      open = undefined;
      at += part.text.length;
    } else if (part.kind === 'delete') {
      open ??= { from: at, to: at, text: '' };
      at += part.text.length;
      open.to = at;
    } else {
      open ??= { from: at, to: at, text: '' };
      open.text += part.text;
    }
  }
  if (open) changes.push(open);
  return changes;
}

const withMark = (marks: RichTextMark[] | undefined, mark: RichTextMark): RichTextMark[] => [
  ...(marks ?? []).filter((m) => !SUGGESTION_MARKS.has(m.type)),
  mark,
];

/** Splits a textblock's children at [from, to), marks that range for deletion and inserts `text` after it. */
function markReplacement(
  block: RichTextNode,
  from: number,
  to: number,
  text: string,
  attrs: SuggestionAttributes,
): RichTextNode {
  const deletion: RichTextMark = { type: 'deletion', attrs: { ...attrs } };
  const insertion: RichTextMark = { type: 'insertion', attrs: { ...attrs } };
  const out: RichTextNode[] = [];
  let offset = 0;
  let inserted = false;
  const insertAfter = (marks: RichTextMark[] | undefined) => {
    if (inserted) return;
    inserted = true;
    if (text) out.push({ type: 'text', text, marks: withMark(marks, insertion) });
  };
  for (const child of block.content ?? []) {
    const length = child.type === 'text' ? (child.text ?? '').length : 1;
    const start = offset;
    const end = offset + length;
    offset = end;
    if (child.type !== 'text' || end <= from || start >= to) {
      // A pure insertion (nothing deleted) goes where the range is, before the first child past it.
      if (from === to && start >= from) insertAfter(out.at(-1)?.marks);
      out.push(child);
      continue;
    }
    const value = child.text ?? '';
    const cutFrom = Math.max(from, start) - start;
    const cutTo = Math.min(to, end) - start;
    const piece = (slice: string, marks: RichTextMark[] | undefined): RichTextNode => ({
      ...child,
      text: slice,
      ...(marks && marks.length > 0 ? { marks } : { marks: undefined }),
    });
    if (cutFrom > 0) out.push(piece(value.slice(0, cutFrom), child.marks));
    if (cutTo > cutFrom) out.push(piece(value.slice(cutFrom, cutTo), withMark(child.marks, deletion)));
    if (end >= to) insertAfter(child.marks);
    if (cutTo < value.length) out.push(piece(value.slice(cutTo), child.marks));
  }
  insertAfter(out.at(-1)?.marks);
  return { ...block, content: out.map(dropEmptyMarks) };
}

function dropEmptyMarks(node: RichTextNode): RichTextNode {
  if (node.marks !== undefined && node.marks.length > 0) return node;
  const { marks: _marks, ...rest } = node;
  void _marks;
  return rest;
}

/**
 * The document with `find` (which must occur exactly once, within one paragraph or heading, outside pending
 * suggestions) marked for deletion and `replace` inserted after it as a suggestion.
 */
export function proposeReplacement(
  doc: RichTextDoc,
  find: string,
  replace: string,
  attrs: SuggestionAttributes,
): ProposeResult {
  const matches: { path: number[]; at: number }[] = [];
  const walk = (nodes: RichTextNode[], path: number[]) => {
    nodes.forEach((node, index) => {
      if (isTextblock(node)) {
        for (const at of occurrences(searchableText(node), find))
          matches.push({ path: [...path, index], at });
      } else if (node.content) walk(node.content, [...path, index]);
    });
  };
  walk(doc.content, []);
  if (matches.length !== 1) {
    return { ok: false, reason: matches.length === 0 ? 'not_found' : 'ambiguous', count: matches.length };
  }
  const { path, at } = matches[0]!;
  // From the last change back, so each one's offsets still hold when it is made.
  const changes = wordChanges(find, replace).reverse();
  const rebuild = (nodes: RichTextNode[], depth: number): RichTextNode[] =>
    nodes.map((node, index) => {
      if (index !== path[depth]) return node;
      if (depth < path.length - 1) return { ...node, content: rebuild(node.content ?? [], depth + 1) };
      return changes.reduce(
        (block, change) => markReplacement(block, at + change.from, at + change.to, change.text, attrs),
        node,
      );
    });
  return { ok: true, doc: { ...doc, content: rebuild(doc.content, 0) } };
}

/** Every text of `nodes` marked as a proposed insertion (a suggest-only agent's appended blocks). */
export function markAllInserted(nodes: RichTextNode[], attrs: SuggestionAttributes): RichTextNode[] {
  const insertion: RichTextMark = { type: 'insertion', attrs: { ...attrs } };
  return nodes.map((node) =>
    node.type === 'text'
      ? { ...node, marks: withMark(node.marks, insertion) }
      : node.content
        ? { ...node, content: markAllInserted(node.content, attrs) }
        : node,
  );
}
