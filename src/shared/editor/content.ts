import type { JSONContent } from '@tiptap/core';
import { Fragment, Mark, type Node as ProseMirrorNode } from '@tiptap/pm/model';
import { getEditorSchema } from './extensions';
import { InvalidContentError, repairRichText, validateRichText } from './validate';

export class InvalidRichTextError extends Error {
  override name = 'InvalidRichTextError';
}

export interface ParseRichTextOptions {
  /**
   * true (default): content the validator refuses, or that breaks the schema's structure rules, is refused.
   * false: it is repaired (the validator's repair mode; a mark set with marks that exclude each other keeps
   * the later one, as the editor would) — for live and stored content, which must always open.
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
 * Reads rich-text content in either form it may arrive in (a tree, or that tree as a JSON string) and
 * checks it with the content validator (validate.ts) and the editor schema: unknown nodes, marks or
 * attribute values are refused with InvalidRichTextError, and so is invalid nesting, unless `strict` is
 * false (then they are repaired); disallowed link hrefs are blanked. Returns the ProseMirror node.
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
  if ((tree as { type?: unknown }).type !== 'doc')
    throw new InvalidRichTextError("Content must have type 'doc' at its root");
  let json: JSONContent;
  if (strict) {
    try {
      json = validateRichText(tree) as JSONContent;
    } catch (error) {
      if (error instanceof InvalidContentError) throw new InvalidRichTextError(error.message);
      throw error;
    }
  } else {
    json = repairRichText(tree).doc as JSONContent;
  }
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
  // The empty doc (a new document's content) is allowed although the schema wants one block; everything else
  // must be valid.
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
