import { documentForUser, listDocumentsInFolders } from '../documents';
import { folderWithSubfolders } from '../folders';
import { imagesForBook, type ImageStore } from '../images';
import { payloadTooLarge } from '../errors';
import type { ServerDependencies } from '../dependencies';
import { exportFileName } from '../../shared/export/filename';
import { MAX_BOOK_CHAPTERS } from '../../shared/constants';
import type { BookFormat, BookOptions, BookOutline } from '../../shared/schemas/compile';
import type { RichTextNode } from '../../shared/schemas/richText';
import { bookOutline, type BookSource } from './book';
import { compileInWorker } from './compile-pool';

/**
 * Compiling a book: the source read through the documents access policy (`export` ability; a folder's
 * documents as the folder export reads them), its images through the images' own rule, then the rendering
 * in the compile worker.
 */

export type CompileContext = Pick<ServerDependencies, 'config' | 'database' | 'db'>;

export const BOOK_MIME_TYPES: Record<BookFormat, string> = {
  epub: 'application/epub+zip',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** What each format can embed as it is; other image types are converted to PNG. */
const IMAGE_TYPES: Record<BookFormat, ('image/png' | 'image/jpeg' | 'image/gif')[]> = {
  epub: ['image/png', 'image/jpeg', 'image/gif'],
  pdf: ['image/png', 'image/jpeg'],
  docx: ['image/png', 'image/jpeg', 'image/gif'],
};

const tooManyChapters = () =>
  payloadTooLarge(
    `A book holds at most ${MAX_BOOK_CHAPTERS} chapters; compile part of it at a time.`,
    'book_too_large',
  );

export async function documentBookSource(
  ctx: CompileContext,
  userId: string,
  documentId: string,
): Promise<BookSource> {
  const document = await documentForUser(ctx, userId, documentId, 'export');
  return { kind: 'document', title: document.title, content: document.content };
}

/** A folder's documents, its sub-folders' after its own, each folder's in the order the writer gave them. */
export async function folderBookSource(
  ctx: CompileContext,
  userId: string,
  folderId: string,
): Promise<BookSource> {
  const tree = await folderWithSubfolders(ctx, userId, folderId);
  const order = new Map(tree.folders.map((folder, index) => [folder.id, index]));
  const documents = await listDocumentsInFolders(
    ctx.db,
    userId,
    tree.folders.map((folder) => folder.id),
    MAX_BOOK_CHAPTERS + 1,
  );
  if (documents.length > MAX_BOOK_CHAPTERS) throw tooManyChapters();
  // The query orders by folder id; the book reads folders in tree order (a stable sort keeps positions).
  documents.sort((a, b) => (order.get(a.folderId) ?? 0) - (order.get(b.folderId) ?? 0));
  return { kind: 'folder', title: tree.name, documents };
}

export function outlineOf(source: BookSource): BookOutline {
  const outline = bookOutline(source);
  if (outline.chapters.length > MAX_BOOK_CHAPTERS) throw tooManyChapters();
  return outline;
}

/** Image addresses in the stored content, without repairing it first (that is the worker's work). */
function imageAddresses(source: BookSource, options: BookOptions): string[] {
  const excluded = new Set(options.exclude);
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    const { type, attrs, content } = node as RichTextNode;
    if (type === 'image' && typeof attrs?.src === 'string') found.add(attrs.src);
    if (Array.isArray(content)) content.forEach(walk);
  };
  if (source.kind === 'document') walk(source.content);
  else for (const document of source.documents) if (!excluded.has(document.id)) walk(document.content);
  return [...found];
}

/** Level-1 headings at the top of stored content: a one-document book's chapters, give or take its intro. */
function chapterCount(source: BookSource): number {
  if (source.kind === 'folder') return source.documents.length;
  const content = (source.content as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return 1;
  return content.filter((node: RichTextNode) => node?.type === 'heading' && Number(node.attrs?.level) === 1)
    .length;
}

export interface BookFile {
  fileName: string;
  contentType: string;
  body: Buffer;
}

export async function compileBook(
  ctx: CompileContext & { imageStore: ImageStore },
  userId: string,
  source: BookSource,
  options: BookOptions,
  format: BookFormat,
  author = '',
  now = new Date(),
): Promise<BookFile> {
  if (chapterCount(source) > MAX_BOOK_CHAPTERS) throw tooManyChapters();
  const images = await imagesForBook(
    ctx,
    ctx.imageStore,
    userId,
    imageAddresses(source, options),
    IMAGE_TYPES[format],
  );
  const bytes = await compileInWorker({ format, source, options, author, images, now: now.getTime() });
  return {
    fileName: exportFileName(options.title || source.title, format, now),
    contentType: BOOK_MIME_TYPES[format],
    body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  };
}
