import type { DocumentResponse } from './documents';
import type { RichTextDoc } from './richText';

/** What an import changed to fit the document schema (the client toasts a summary). */
export interface ImportDegradation {
  /** Human-readable, e.g. "2 headings below level 3 became level 3". */
  message: string;
  count: number;
  kind: 'heading_level' | 'image' | 'image_skipped' | 'unsupported';
}

/**
 * `POST /api/documents/import` → 201: the new document, plus `degraded`: what had to change on the way in
 * (empty when the file fitted the document schema as it was).
 */
export type ImportResponse = DocumentResponse & { degraded: ImportDegradation[] };

/** `POST /api/documents/import/convert` → 200: a file as content to insert into an open document. */
export interface ConvertedFile {
  title: string;
  content: RichTextDoc;
  degraded: ImportDegradation[];
}
