import type { JSONContent } from '@tiptap/core';
import { Fragment, Mark, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { HEADING_LEVELS, TEXT_ALIGNMENTS } from '../constants';
import { getEditorSchema } from './extensions';
import { isAllowedHref } from './links';

/** SPEC §3: the empty document is a doc with an empty content list. */
export const EMPTY_DOCUMENT: JSONContent = { type: 'doc', content: [] };

export class InvalidRichTextError extends Error {
  override name = 'InvalidRichTextError';
}

/**
 * Checks what the schema itself does not (heading levels 1–3, the four alignments) and blanks hrefs
 * outside the whitelist (SPEC §5), in place on a JSON tree.
 */
function checkAndSanitize(node: JSONContent): void {
  const attrs = node.attrs ?? {};
  if (node.type === 'heading' && !(HEADING_LEVELS as readonly unknown[]).includes(attrs.level ?? 1)) {
    throw new InvalidRichTextError(`Heading level must be one of ${HEADING_LEVELS.join(', ')}`);
  }
  if (attrs.textAlign != null && !(TEXT_ALIGNMENTS as readonly unknown[]).includes(attrs.textAlign)) {
    throw new InvalidRichTextError(`Text alignment must be one of ${TEXT_ALIGNMENTS.join(', ')}`);
  }
  for (const mark of node.marks ?? []) {
    if (mark.type === 'link' && mark.attrs && typeof mark.attrs.href === 'string') {
      if (!isAllowedHref(mark.attrs.href)) mark.attrs.href = '';
    }
  }
  for (const child of node.content ?? []) checkAndSanitize(child);
}

export interface ParseRichTextOptions {
  /**
   * true (default): content that breaks the schema's structure rules is refused. false: it is repaired
   * where that is unambiguous (a mark set with marks that exclude each other keeps the later one, as the
   * editor would) and otherwise accepted as it is — for content that is already stored, which must
   * always open.
   */
  strict?: boolean;
}

/** Rebuilds every text node's mark set with the schema's exclusion rules (e.g. code excludes others). */
function repairMarks(node: ProseMirrorNode): ProseMirrorNode {
  if (node.isText) {
    let marks = Mark.none;
    for (const mark of node.marks) marks = mark.addToSet(marks);
    return Mark.sameSet(marks, node.marks) ? node : node.mark(marks);
  }
  if (node.childCount === 0) return node;
  const children: ProseMirrorNode[] = [];
  node.forEach((child) => children.push(repairMarks(child)));
  return node.copy(Fragment.fromArray(children));
}

/**
 * Reads rich-text content as SPEC §3 allows it to arrive (a tree, or that tree as a JSON string) and
 * checks it against the editor schema: unknown nodes, marks or attributes are refused with
 * InvalidRichTextError, and so is invalid nesting unless `strict` is false; disallowed link hrefs are
 * blanked. Returns the ProseMirror node.
 */
export function parseRichText(value: unknown, options: ParseRichTextOptions = {}): ProseMirrorNode {
  const { strict = true } = options;
  let tree: unknown = value;
  if (typeof value === 'string') {
    try {
      tree = JSON.parse(value);
    } catch {
      throw new InvalidRichTextError('Content is not valid JSON');
    }
  }
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) {
    throw new InvalidRichTextError('Content must be a rich-text tree');
  }
  const json = structuredClone(tree) as JSONContent;
  if (json.type !== 'doc') throw new InvalidRichTextError("Content must have type 'doc' at its root");
  json.content ??= [];
  checkAndSanitize(json);
  const schema = getEditorSchema();
  let node: ProseMirrorNode;
  try {
    node = schema.nodeFromJSON(json);
  } catch (error) {
    throw new InvalidRichTextError(
      `Content does not match the document schema: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!strict) node = repairMarks(node);
  // The empty doc (SPEC §3) is allowed although the schema wants one block; everything else must be valid.
  if (node.childCount > 0) {
    try {
      node.check();
    } catch (error) {
      if (strict) {
        throw new InvalidRichTextError(
          `Content does not match the document schema: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  }
  return node;
}
