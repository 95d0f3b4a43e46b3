import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { Transform } from '@tiptap/pm/transform';
import { COMMENT_MARK } from '../../shared/editor/comment-mark';
import { parseRichText } from '../../shared/editor/content';
import { getEditorSchema } from '../../shared/editor/extensions';
import type { CommentAnchor } from '../../shared/schemas/comments';
import type { RichTextDoc } from '../../shared/schemas/richText';

/**
 * Where a thread sits in a document: finding a quoted passage (with the text before and after it) in the
 * current content, putting a thread's `comment` mark on it, taking it off, and the order of threads in the
 * text. Pure functions over the stored JSON; the document writer applies what they return.
 *
 * Text is compared with every run of white space (a line break, the break between two paragraphs) read as one
 * space, so a quote taken with any block separator matches.
 */

/** More matches than this of one quote are not weighed: the first ones are (a quote this common says little). */
const MAX_CANDIDATES = 1_000;

interface FlatText {
  /** The document's text, white space collapsed to single spaces. */
  text: string;
  /** For each character of `text`, the document position of the character it stands for (-1: a block break). */
  positions: number[];
}

const isSpace = (character: string) => /\s/.test(character);

/** The document's text as one string with the position of each character (white space collapsed). */
function flatten(doc: ProseMirrorNode): FlatText {
  let text = '';
  const positions: number[] = [];
  const push = (character: string, position: number) => {
    if (isSpace(character)) {
      if (text.length === 0 || text.endsWith(' ')) return;
      text += ' ';
      positions.push(position);
      return;
    }
    text += character;
    positions.push(position);
  };
  let first = true;
  doc.descendants((node, position) => {
    if (node.isTextblock) {
      if (!first) push('\n', -1);
      first = false;
      return true;
    }
    if (node.isText) {
      const value = node.text ?? '';
      for (let index = 0; index < value.length; index++) push(value[index]!, position + index);
      return false;
    }
    if (node.isInline && node.isLeaf) push(' ', -1);
    return true;
  });
  return { text, positions };
}

const collapse = (value: string) => value.replace(/\s+/g, ' ');

/** How many characters `a` and `b` share at their ends (`fromEnd`) or starts. */
function sharedLength(a: string, b: string, fromEnd: boolean): number {
  const length = Math.min(a.length, b.length);
  let shared = 0;
  while (shared < length) {
    const x = fromEnd ? a[a.length - 1 - shared] : a[shared];
    const y = fromEnd ? b[b.length - 1 - shared] : b[shared];
    if (x !== y) break;
    shared++;
  }
  return shared;
}

/** The document range [from, to) of flat characters [start, end), without white space at its edges. */
function rangeOf(flat: FlatText, start: number, end: number): { from: number; to: number } | null {
  let first = start;
  while (first < end && (flat.positions[first] === -1 || flat.text[first] === ' ')) first++;
  let last = end - 1;
  while (last >= first && (flat.positions[last] === -1 || flat.text[last] === ' ')) last--;
  if (last < first) return null;
  return { from: flat.positions[first]!, to: flat.positions[last]! + 1 };
}

/**
 * The passage `anchor` names in `doc`: its `from`/`to` when the text there still reads as the quote, else the
 * occurrence of the quote whose surroundings best match the prefix and suffix (the nearest to `from` among
 * equals). Null when the quote is nowhere in the text.
 */
export function findPassage(
  doc: ProseMirrorNode,
  anchor: CommentAnchor,
): { from: number; to: number } | null {
  const quote = collapse(anchor.quote).trim();
  if (!quote) return null;
  const size = doc.content.size;
  if (anchor.from !== undefined && anchor.to !== undefined && anchor.from < anchor.to && anchor.to <= size) {
    const there = collapse(doc.textBetween(anchor.from, anchor.to, ' ', ' ')).trim();
    if (there === quote) return { from: anchor.from, to: anchor.to };
  }
  const flat = flatten(doc);
  const prefix = collapse(anchor.prefix);
  const suffix = collapse(anchor.suffix);
  let best: { start: number; score: number; distance: number } | undefined;
  let found = 0;
  for (
    let start = flat.text.indexOf(quote);
    start >= 0 && found < MAX_CANDIDATES;
    start = flat.text.indexOf(quote, start + 1), found++
  ) {
    const before = flat.text.slice(Math.max(0, start - prefix.length - 1), start);
    const after = flat.text.slice(start + quote.length, start + quote.length + suffix.length + 1);
    const score =
      sharedLength(before.trimEnd(), prefix.trimEnd(), true) +
      sharedLength(after.trimStart(), suffix.trimStart(), false);
    const distance = anchor.from === undefined ? 0 : Math.abs((flat.positions[start] ?? 0) - anchor.from);
    if (!best || score > best.score || (score === best.score && distance < best.distance)) {
      best = { start, score, distance };
    }
  }
  return best ? rangeOf(flat, best.start, best.start + quote.length) : null;
}

function nodeOf(content: RichTextDoc): ProseMirrorNode {
  return parseRichText(content, { strict: false });
}

/**
 * `content` with the thread's mark over the passage `anchor` names; `unchanged` when the thread's mark is
 * already in the text (a retried create), null when the passage is not found.
 */
export function markPassage(
  content: RichTextDoc,
  threadId: string,
  anchor: CommentAnchor,
): RichTextDoc | 'unchanged' | null {
  const doc = nodeOf(content);
  if (threadPositions(doc).has(threadId)) return 'unchanged';
  const range = findPassage(doc, anchor);
  if (!range) return null;
  const type = getEditorSchema().marks[COMMENT_MARK]!;
  const transform = new Transform(doc).addMark(range.from, range.to, type.create({ threadId }));
  return transform.doc.toJSON() as RichTextDoc;
}

/**
 * `content` with the mark of each of `threads` that is not in it put back over its passage, where its quote is
 * found (weighed by the text before and after it); null when none was put back. A thread whose quote is
 * nowhere in the text stays without its mark.
 */
export function remarkThreads(
  content: RichTextDoc,
  threads: readonly { id: string; anchor: CommentAnchor }[],
): RichTextDoc | null {
  const doc = nodeOf(content);
  const present = threadPositions(doc);
  const type = getEditorSchema().marks[COMMENT_MARK]!;
  const transform = new Transform(doc);
  for (const thread of threads) {
    if (present.has(thread.id)) continue;
    const range = findPassage(transform.doc, thread.anchor);
    if (range) transform.addMark(range.from, range.to, type.create({ threadId: thread.id }));
  }
  return transform.docChanged ? (transform.doc.toJSON() as RichTextDoc) : null;
}

/** `content` without the marks of the given threads, or null when none of them is in it. */
export function unmarkThreads(content: RichTextDoc, threadIds: readonly string[]): RichTextDoc | null {
  const doc = nodeOf(content);
  const present = threadPositions(doc);
  const gone = threadIds.filter((id) => present.has(id));
  if (gone.length === 0) return null;
  const type = getEditorSchema().marks[COMMENT_MARK]!;
  const transform = new Transform(doc);
  for (const threadId of gone) transform.removeMark(0, doc.content.size, type.create({ threadId }));
  return transform.doc.toJSON() as RichTextDoc;
}

/** Where each thread's mark starts in the document (its first marked character). */
function threadPositions(doc: ProseMirrorNode): Map<string, number> {
  const positions = new Map<string, number>();
  doc.descendants((node, position) => {
    for (const mark of node.marks) {
      const threadId: unknown = mark.attrs.threadId;
      if (mark.type.name === COMMENT_MARK && typeof threadId === 'string' && !positions.has(threadId)) {
        positions.set(threadId, position);
      }
    }
    return true;
  });
  return positions;
}

/** The order of the threads whose marks are in `content`: thread id → its place (0 first). */
export function threadOrder(content: unknown): Map<string, number> {
  let doc: ProseMirrorNode;
  try {
    doc = parseRichText(content, { strict: false });
  } catch {
    return new Map();
  }
  const order = new Map<string, number>();
  for (const [threadId] of [...threadPositions(doc)].sort((a, b) => a[1] - b[1])) {
    order.set(threadId, order.size);
  }
  return order;
}
