import path from 'node:path';
import type { ImportDegradation } from '../../shared/schemas/imports';
import type { RichTextDoc, RichTextNode } from '../../shared/schemas/richText';
import { AppError } from '../errors';
import type { ImportedPicture } from './docx-to-html';
import { getDocument, type DocumentRecord, type DocumentsContext } from '../documents';
import type { ServerDependencies } from '../dependencies';
import { secondsSince } from '../metrics';
import { convertInWorker } from './import-pool';
import { skippedPicturesMessage } from './import-limits';

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
  /** A Word file's pictures, named in `content` by placeholder addresses (when asked for). */
  pictures: ImportedPicture[];
}

/**
 * Converts a file to a title and validated content (convert-file.ts) in an import worker, under the
 * worker's memory and time budget; 422 `import_failed` when it cannot be read. `owner` is the writer: one
 * writer's imports take turns, so they never hold up another writer's. `whole` keeps an opening heading in
 * the content (for inserting the file into an open document) instead of making it the title only.
 * `pictures` reads a Word file's pictures for the caller to store (createImportedDocument); without it they
 * are their alt text. `metrics` times the conversion (the routes pass the server's; a benchmark need not).
 */
export async function convertFile(
  fileName: string,
  bytes: Buffer,
  {
    owner,
    whole = false,
    pictures = false,
    metrics,
  }: {
    owner: string;
    whole?: boolean;
    pictures?: boolean;
    metrics?: ServerDependencies['metrics'] | undefined;
  },
): Promise<ImportedContent> {
  const format = importFormatOf(fileName);
  const started = performance.now();
  let ok = false;
  try {
    const imported = await convertInWorker(owner, { format, fileName, bytes, whole, pictures });
    ok = true;
    return imported;
  } finally {
    metrics?.imported(format, secondsSince(started), ok);
  }
}

/** Stores one picture in the new document: resolves with its address, or null when it is refused. */
export type PictureStore = (documentId: string, bytes: Buffer) => Promise<string | null>;

/** The content with each placeholder address swapped for its stored image's; a picture not stored is its alt text. */
function withStoredPictures(
  nodes: RichTextNode[],
  placeholders: ReadonlySet<string>,
  stored: ReadonlyMap<string, string>,
): RichTextNode[] {
  return nodes.flatMap((node): RichTextNode[] => {
    const src = node.type === 'image' && typeof node.attrs?.src === 'string' ? node.attrs.src : undefined;
    if (src !== undefined && placeholders.has(src)) {
      const real = stored.get(src);
      if (real) return [{ ...node, attrs: { ...node.attrs, src: real } }];
      const alt = typeof node.attrs?.alt === 'string' ? node.attrs.alt.trim() : '';
      return alt ? [{ type: 'paragraph', content: [{ type: 'text', text: alt }] }] : [];
    }
    return node.content
      ? [{ ...node, content: withStoredPictures(node.content, placeholders, stored) }]
      : [node];
  });
}

/**
 * The one place an import writes: through the document writer, so plan limits and every write rule
 * apply as they do to a document created in the editor. Pictures (a Word file's) are stored in the new
 * document by `storePicture` (the images' upload rules: type, size, the owner's plan) and the content's
 * placeholder addresses swapped for theirs in one content change (no version is kept of the placeholders);
 * a refused picture becomes its alt text and is counted in `degraded` (`image_skipped`).
 */
export async function createImportedDocument(
  ctx: DocumentsContext,
  userId: string,
  imported: ImportedContent,
  storePicture?: PictureStore,
): Promise<{ document: DocumentRecord; degraded: ImportDegradation[] }> {
  const writer = ctx.documentWriter;
  const document = await writer.create({
    ownerId: userId,
    title: imported.title,
    content: writer.validate(imported.content),
    source: 'import',
  });
  if (imported.pictures.length === 0) return { document, degraded: imported.degraded };
  const stored = new Map<string, string>();
  for (const picture of imported.pictures) {
    const src = storePicture ? await storePicture(document.id, Buffer.from(picture.bytes)) : null;
    if (src) stored.set(picture.src, src);
  }
  const placeholders = new Set(imported.pictures.map((picture) => picture.src));
  const content: RichTextDoc = {
    type: 'doc',
    content: withStoredPictures(imported.content.content, placeholders, stored),
  };
  await writer.changeContent({ documentId: document.id, userId, source: 'import', change: () => content });
  const skipped = imported.pictures.length - stored.size;
  return {
    // Read back: the change made a new version.
    document: await getDocument(ctx, userId, document.id),
    degraded: skipped > 0 ? addSkipped(imported.degraded, skipped) : imported.degraded,
  };
}

function addSkipped(degraded: ImportDegradation[], count: number): ImportDegradation[] {
  const before = degraded.find((change) => change.kind === 'image_skipped')?.count ?? 0;
  return [
    ...degraded.filter((change) => change.kind !== 'image_skipped'),
    { kind: 'image_skipped', count: before + count, message: skippedPicturesMessage(before + count) },
  ];
}
