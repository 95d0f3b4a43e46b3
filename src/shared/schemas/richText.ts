import { z } from 'zod';
import { InvalidContentError, validateRichText } from '../editor/validate';

/**
 * The rich-text tree (docs/product-rules.md#rich-text-content) as it travels in the API: its types, and the
 * zod schemas for request and response bodies. The rules themselves live in one place, the content validator
 * derived from the editor schema (src/shared/editor/validate.ts); links in src/shared/editor/links.ts.
 */

export { MAX_RICH_TEXT_DEPTH, MAX_RICH_TEXT_NODES } from '../editor/validate';
export { isSafeHref, sanitizeHref } from '../editor/links';

export interface RichTextMark {
  type: string;
  attrs?: Record<string, unknown>;
}

export interface RichTextNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: RichTextNode[];
  marks?: RichTextMark[];
  text?: string;
}

export interface RichTextDoc {
  type: 'doc';
  content: RichTextNode[];
}

export type SanitizeResult = { ok: true; doc: RichTextDoc } | { ok: false; message: string };

/** A new empty document (a fresh object each time, safe to mutate). */
export function emptyDoc(): RichTextDoc {
  return { type: 'doc', content: [] };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validates a rich-text document for a write (the validator's `refuse` mode). `input` may be the tree or its
 * JSON text (both forms are accepted). Returns a new tree (the input is not modified) or a message saying
 * what is wrong and where.
 */
export function sanitizeDocContent(input: unknown): SanitizeResult {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { ok: false, message: 'content is a string but not valid JSON' };
    }
  }
  if (!isPlainObject(value)) {
    return {
      ok: false,
      message: 'content must be a rich-text document: { "type": "doc", "content": [...] }',
    };
  }
  try {
    return { ok: true, doc: validateRichText(value) };
  } catch (error) {
    if (error instanceof InvalidContentError) return { ok: false, message: error.message };
    // JSON.parse can produce trees deep enough to hit engine limits elsewhere; never let that escape.
    if (error instanceof RangeError)
      return { ok: false, message: 'content is too large or too deeply nested' };
    throw error;
  }
}

/** zod schema for `content` in request bodies: accepts a tree or JSON text, outputs the sanitized tree. */
export const richTextDocInputSchema = z.unknown().transform((value, ctx): RichTextDoc => {
  const result = sanitizeDocContent(value);
  if (result.ok) return result.doc;
  ctx.addIssue({ code: 'custom', message: result.message });
  return z.NEVER;
});
