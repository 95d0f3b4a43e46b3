import type { JSONContent } from '@tiptap/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { prosemirrorToYXmlFragment, updateYFragment, yXmlFragmentToProsemirrorJSON } from '@tiptap/y-tiptap';
import * as Y from 'yjs';
import { COLLAB_FRAGMENT } from '../../shared/editor/collab-protocol';
import { InvalidRichTextError, parseRichText } from '../../shared/editor/content';
import { getEditorSchema } from '../../shared/editor/extensions';
import { repairRichText } from '../../shared/editor/validate';
import type { RichTextDoc } from '../../shared/schemas/richText';
import { badRequest } from '../errors';

/**
 * Rich text ⇄ Yjs for the server, with the one shared schema (src/shared/editor/extensions.ts).
 * The JSON `content` column of a live document is always derived from its Yjs state, checked by the content
 * validator first (repairLiveContent).
 */

/**
 * Parses stored content for a document's first Yjs state, or answers 400 `invalid_content`. Lenient about
 * structure (see ParseRichTextOptions): stored content may not be refused after the fact.
 */
function parseDocumentContent(value: unknown): ProseMirrorNode {
  try {
    return parseRichText(value, { strict: false });
  } catch (error) {
    if (error instanceof InvalidRichTextError) throw badRequest(error.message, 'invalid_content');
    throw error;
  }
}

/**
 * The editor schema's node for content the document writer already validated (DocumentWriter.validate): no
 * second validation, only the conversion replaceYDocContent needs.
 */
export function contentToNode(content: RichTextDoc): ProseMirrorNode {
  return getEditorSchema().nodeFromJSON(content);
}

/** A new Y.Doc holding the given content (the first Yjs state of a document that only had JSON). */
export function contentToYDoc(content: unknown): Y.Doc {
  const node = parseDocumentContent(content);
  const doc = new Y.Doc();
  prosemirrorToYXmlFragment(node, doc.getXmlFragment(COLLAB_FRAGMENT));
  return doc;
}

/** The JSON tree of a Y.Doc's body: the value kept in documents.content. */
export function yDocToContent(doc: Y.Doc): JSONContent {
  const json = yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(COLLAB_FRAGMENT)) as JSONContent;
  json.content ??= [];
  return json;
}

/**
 * Makes the body of a live Y.Doc equal to `node` with the smallest Yjs change (y-tiptap's diff, the
 * same one the editor uses), inside the caller's transaction: unchanged paragraphs keep their identity,
 * so text a writer adds elsewhere at the same moment merges instead of being replaced.
 */
export function replaceYDocContent(doc: Y.Doc, node: ProseMirrorNode): void {
  const fragment = doc.getXmlFragment(COLLAB_FRAGMENT);
  updateYFragment(doc, fragment, node, { mapping: new Map(), isOMark: new Map() });
}

/**
 * The body of a live document as it may be stored: derived from its Yjs state and run through the content
 * validator (repair mode). Anything a client wrote that the validator does not allow (an unknown node, a
 * `javascript:` href, a heading of level 9, an oversized attribute) is repaired in `doc` itself with the
 * smallest Yjs change, so every connected editor converges on the clean text. Returns the clean JSON.
 */
export function repairLiveContent(doc: Y.Doc, log: FastifyBaseLogger, documentId: string): JSONContent {
  const content = yDocToContent(doc);
  const { doc: clean, changed } = repairRichText(content);
  if (!changed) return content;
  log.warn({ documentId }, 'live content failed validation; repaired before storing');
  // parseRichText's lenient mode also settles marks that exclude each other.
  const node = parseRichText(clean, { strict: false });
  doc.transact(() => replaceYDocContent(doc, node));
  // Yjs' diff takes some differences for equal (a mark whose attributes are `true` instead of an object, which
  // every editor reads as the plain mark), so what is stored is the validator's output of the repaired state.
  return repairRichText(yDocToContent(doc)).doc as JSONContent;
}
