import { z } from 'zod';
import { MAX_DOCUMENT_TITLE_LENGTH, MAX_TEMPLATE_NAME_LENGTH } from '../constants';
import { documentIdSchema } from './documents';

/**
 * Templates API (/api/templates): the built-in templates and the writer's own, saving a document as a
 * template, and making a document from one with its variables filled.
 */

/** POST /api/templates: the document to copy, and a name (the document's title when absent or blank). */
export const saveTemplateBodySchema = z.object({
  documentId: documentIdSchema,
  name: z
    .string()
    .trim()
    .max(MAX_TEMPLATE_NAME_LENGTH, `must be at most ${MAX_TEMPLATE_NAME_LENGTH} characters`)
    .optional(),
});
export type SaveTemplateBody = z.input<typeof saveTemplateBodySchema>;

/**
 * POST /api/templates/:id/documents. `date` is the writer's local date (YYYY-MM-DD), which `{{date}}` shows
 * readably; `title` fills `{{title}}` and names the new document (blank: the template's own title).
 */
export const useTemplateBodySchema = z.object({
  date: z.iso.date('must be a date (YYYY-MM-DD)'),
  title: z
    .string()
    .trim()
    .max(MAX_DOCUMENT_TITLE_LENGTH, `must be at most ${MAX_DOCUMENT_TITLE_LENGTH} characters`)
    .optional(),
});
export type UseTemplateBody = z.input<typeof useTemplateBodySchema>;

export interface TemplateSummary {
  /** A built-in template's slug (`blog-post`), or the UUID of one of the writer's. */
  id: string;
  name: string;
  /** What a built-in template is for; null for the writer's own. */
  description: string | null;
  builtIn: boolean;
  /** The title of documents made from it, variables unfilled. */
  title: string;
  /** Its opening text as plain lines, variables unfilled. */
  preview: string;
  /** When the writer saved it; null for a built-in template. */
  created_at: string | null;
}

/** GET /api/templates. */
export interface TemplateList {
  builtIn: TemplateSummary[];
  /** The writer's own, newest first. */
  mine: TemplateSummary[];
}
