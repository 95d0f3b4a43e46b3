import path from 'node:path';
import type { ImportDegradation } from '../../shared/schemas/imports';
import type { RichTextDoc } from '../../shared/schemas/richText';
import { AppError } from '../errors';
import type { DocumentRecord, DocumentsContext } from '../documents';
import type { ServerDependencies } from '../dependencies';
import { secondsSince } from '../metrics';
import { convertInWorker } from './import-pool';

/**
 * Bringing files in: Markdown, Word, HTML and plain text become documents of the editor schema. Every
 * format goes through HTML and the editor schema's parser, then the server's content validator, so an
 * import can hold nothing a typed document could not.
 */

export type ImportFormat = 'markdown' | 'docx' | 'html' | 'text';

const FORMAT_BY_EXTENSION: Record<string, ImportFormat> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.docx': 'docx',
  '.html': 'html',
  '.htm': 'html',
  '.txt': 'text',
};

/** The format a file name says it has, or 415 `unsupported_media_type`. */
export function importFormatOf(fileName: string): ImportFormat {
  const format = FORMAT_BY_EXTENSION[path.extname(fileName).toLowerCase()];
  if (!format) {
    throw new AppError(
      415,
      'unsupported_media_type',
      'This file type cannot be imported. Choose a Markdown (.md), Word (.docx), HTML (.html) or text (.txt) file.',
    );
  }
  return format;
}

export interface ImportedContent {
  title: string;
  content: RichTextDoc;
  degraded: ImportDegradation[];
}

/**
 * Converts a file to a title and validated content (convert-file.ts) in an import worker, under the
 * worker's memory and time budget; 422 `import_failed` when it cannot be read. `owner` is the writer: one
 * writer's imports take turns, so they never hold up another writer's. `whole` keeps an opening heading in
 * the content (for inserting the file into an open document) instead of making it the title only.
 * `metrics` times the conversion (the routes pass the server's; a benchmark need not).
 */
export async function convertFile(
  fileName: string,
  bytes: Buffer,
  {
    owner,
    whole = false,
    metrics,
  }: { owner: string; whole?: boolean; metrics?: ServerDependencies['metrics'] | undefined },
): Promise<ImportedContent> {
  const format = importFormatOf(fileName);
  const started = performance.now();
  let ok = false;
  try {
    const imported = await convertInWorker(owner, { format, fileName, bytes, whole });
    ok = true;
    return imported;
  } finally {
    metrics?.imported(format, secondsSince(started), ok);
  }
}

/**
 * The one place an import writes: through the document writer, so plan limits and every write rule
 * apply as they do to a document created in the editor.
 */
export async function createImportedDocument(
  ctx: DocumentsContext,
  userId: string,
  imported: ImportedContent,
): Promise<DocumentRecord> {
  const writer = ctx.documentWriter;
  return writer.create({
    ownerId: userId,
    title: imported.title,
    content: writer.validate(imported.content),
    source: 'import',
  });
}
