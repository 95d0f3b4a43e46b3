import { z } from 'zod';
import { DEFAULT_DOCUMENT_TITLE, MAX_DOCUMENT_TITLE_LENGTH } from '../constants';
import { richTextDocInputSchema, richTextDocSchema } from './richText';

/**
 * Documents API (issue 2 "API contract"): request bodies the server validates and response shapes the
 * client reads. `content` in a request may be the rich-text tree or its JSON text; the server stores the
 * sanitized tree (see richText.ts).
 */

export { MAX_DOCUMENT_TITLE_LENGTH };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const documentIdSchema = z.string().regex(UUID, 'must be a document id (a UUID)');

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
export type UpdateDocumentBody = z.input<typeof updateDocumentBodySchema>;

/** One row of GET /api/documents (the dashboard): no content. Timestamps are ISO 8601 strings. */
export const documentSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  user_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  is_public: z.boolean(),
});
export type DocumentSummary = z.infer<typeof documentSummarySchema>;

/** GET/POST/PATCH /api/documents[/:id]. The response also carries `ETag: "<version>"` for If-Match. */
export const documentSchema = documentSummarySchema.extend({ content: richTextDocSchema });
export type DocumentResponse = z.infer<typeof documentSchema>;

export const documentListSchema = z.array(documentSummarySchema);
