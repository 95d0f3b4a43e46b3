import { z } from 'zod';
import { DEFAULT_DOCUMENT_TITLE, MAX_DOCUMENT_TITLE_LENGTH } from '../constants';
import { richTextDocInputSchema, type RichTextDoc } from './richText';
import { UUID_PATTERN } from '../uuid';

/**
 * Documents API: request bodies the server validates and response shapes the
 * client reads. `content` in a request may be the rich-text tree or its JSON text; the server stores the
 * sanitized tree (see richText.ts).
 */

export { MAX_DOCUMENT_TITLE_LENGTH };

export const documentIdSchema = z.string().regex(UUID_PATTERN, 'must be a document id (a UUID)');

/** A title as stored: trimmed, and a blank one is "Untitled Document" so no list or dialog shows an empty name. */
export const documentTitleSchema = z
  .string()
  .trim()
  .max(MAX_DOCUMENT_TITLE_LENGTH, `must be at most ${MAX_DOCUMENT_TITLE_LENGTH} characters`)
  .transform((title) => title || DEFAULT_DOCUMENT_TITLE);

/** POST /api/documents. A missing or blank title becomes "Untitled Document"; missing content the empty doc. */
export const createDocumentBodySchema = z.object({
  title: documentTitleSchema.optional(),
  content: richTextDocInputSchema.optional(),
});
export type CreateDocumentBody = z.input<typeof createDocumentBodySchema>;

/** PATCH /api/documents/:id: at least one of title and content. Other keys are ignored. */
export const updateDocumentBodySchema = z
  .object({
    title: documentTitleSchema.optional(),
    content: richTextDocInputSchema.optional(),
  })
  .refine((body) => body.title !== undefined || body.content !== undefined, {
    message: 'send title or content to update',
  });

/** One row of GET /api/documents (the dashboard): no content. Timestamps are ISO 8601 strings. */
export interface DocumentSummary {
  id: string;
  title: string;
  user_id: string;
  created_at: string;
  updated_at: string;
  is_public: boolean;
}

/** GET/POST/PATCH /api/documents[/:id]. The response also carries `ETag: "<version>"` for If-Match. */
export interface DocumentResponse extends DocumentSummary {
  content: RichTextDoc;
}

/** GET /api/documents/:id/pin: whether the signed-in user pinned the document. */
export interface PinState {
  pinned: boolean;
}
