import path from 'node:path';
import { DEFAULT_DOCUMENT_TITLE } from '../../shared/constants';
import { MAX_DOCUMENT_TITLE_LENGTH } from '../../shared/schemas/documents';
import { sanitizeDocContent, type RichTextDoc, type RichTextNode } from '../../shared/schemas/richText';
import { stripNul } from '../../shared/text/nul';
import { unprocessable } from '../errors';
import type { Degradations } from './html-to-document';
import { assertMarkdownNesting, ImportTooComplexError } from './import-limits';
import type { ImportedContent, ImportFormat } from './import-service';

/**
 * A file's bytes → a title and validated content. Runs inside an import worker (import-worker.ts), never on
 * the server's main thread: every parser here meets the writer's file.
 */

import { CorruptFileError, docxToHtml, type ImportedPicture } from './docx-to-html';
import { describeDegradations, htmlToDocumentJson } from './html-to-document';
import { markdownToHtml } from './markdown-to-html';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Plain text: a blank line separates paragraphs, a single newline is a line break. */
function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .filter((block) => block.trim() !== '')
    .map((block) => `<p>${escapeHtml(block.replace(/^\n+|\n+$/g, '')).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

function decodeText(buffer: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buffer).replace(/^\uFEFF/, '');
  } catch {
    throw unprocessable('The file is not valid UTF-8 text, so it could not be imported.', 'import_failed');
  }
}

function imageSources(nodes: RichTextNode[] | undefined, found: string[] = []): string[] {
  for (const node of nodes ?? []) {
    if (node.type === 'image' && typeof node.attrs?.src === 'string') found.push(node.attrs.src);
    imageSources(node.content, found);
  }
  return found;
}

const inlineText = (node: RichTextNode): string =>
  (node.content ?? []).map((child) => (child.type === 'hardBreak' ? ' ' : (child.text ?? ''))).join('');

function titleFromFileName(fileName: string): string {
  const base = path.basename(fileName, path.extname(fileName)).replace(/[_]+/g, ' ').trim();
  return base || DEFAULT_DOCUMENT_TITLE;
}

const fitTitle = (title: string) =>
  stripNul(title).replace(/\s+/g, ' ').trim().slice(0, MAX_DOCUMENT_TITLE_LENGTH).trim();

/**
 * The title: a heading that opens the document is the title and leaves the body (that is how our own
 * exports begin, so a round trip gives back the same document); otherwise the first heading names the
 * document and stays; otherwise the file name does.
 */
function takeTitle(doc: RichTextDoc, fileName: string): { title: string; content: RichTextDoc } {
  const [first, ...rest] = doc.content;
  if (first?.type === 'heading' && fitTitle(inlineText(first))) {
    return { title: fitTitle(inlineText(first)), content: { type: 'doc', content: rest } };
  }
  const heading = doc.content.find((node) => node.type === 'heading' && fitTitle(inlineText(node)));
  return {
    title: heading ? fitTitle(inlineText(heading)) : fitTitle(titleFromFileName(fileName)),
    content: doc,
  };
}

/**
 * What the HTML parser adds that a typed document would not hold: attributes at their null default (and a
 * table cell's spans of one), the link target/rel every link is rendered with anyway, the newlines Markdown puts after a code block, and the
 * space a line break leaves at the start of a paragraph (HTML never shows it).
 */
function tidy(nodes: RichTextNode[] | undefined): void {
  for (const node of nodes ?? []) {
    if (node.attrs) {
      for (const key of Object.keys(node.attrs)) if (node.attrs[key] === null) delete node.attrs[key];
      // A table cell's spans at their default of one.
      if (node.attrs.colspan === 1) delete node.attrs.colspan;
      if (node.attrs.rowspan === 1) delete node.attrs.rowspan;
      if (Object.keys(node.attrs).length === 0) delete node.attrs;
    }
    for (const mark of node.marks ?? []) {
      if (!mark.attrs) continue;
      if (mark.type === 'link') {
        delete mark.attrs.target;
        delete mark.attrs.rel;
      }
      for (const key of Object.keys(mark.attrs)) if (mark.attrs[key] === null) delete mark.attrs[key];
    }
    if (node.type === 'codeBlock') {
      const last = node.content?.at(-1);
      if (last?.text?.endsWith('\n')) {
        last.text = last.text.replace(/\n+$/u, '');
        if (last.text === '') node.content!.pop();
      }
    }
    if (node.type === 'paragraph' || node.type === 'heading') {
      const first = node.content?.[0];
      if (first?.text && /^[ \t\n\r]/u.test(first.text)) {
        first.text = first.text.replace(/^[ \t\n\r]+/u, '');
        if (first.text === '') node.content!.shift();
      }
    }
    tidy(node.content);
  }
}

/**
 * Converts a file's bytes to a title and validated content; 422 `import_failed` when it cannot be read.
 * `pictures`: a Word file's pictures are read and returned beside the content, which names them by
 * placeholder addresses (the caller stores them and swaps the addresses); otherwise they are their alt text.
 * `whole` keeps an opening heading in the content (for inserting the file into an open document) instead
 * of making it the title only.
 */
export async function convertFileContent(
  format: ImportFormat,
  fileName: string,
  bytes: Buffer,
  whole: boolean,
  pictures = false,
): Promise<ImportedContent> {
  try {
    return await convertChecked(format, fileName, bytes, whole, pictures);
  } catch (error) {
    if (error instanceof ImportTooComplexError) throw unprocessable(error.message, 'import_failed');
    // A parser's recursion on input nested past what the checks above catch.
    if (error instanceof RangeError) {
      throw unprocessable('The file is nested too deeply or is too large to import.', 'import_failed');
    }
    throw error;
  }
}

async function convertChecked(
  format: ImportFormat,
  fileName: string,
  bytes: Buffer,
  whole: boolean,
  withPictures: boolean,
): Promise<ImportedContent> {
  let html: string;
  let pictures: ImportedPicture[] = [];
  const degraded: Degradations = new Map();
  switch (format) {
    case 'markdown': {
      const source = decodeText(bytes);
      assertMarkdownNesting(source);
      html = markdownToHtml(source);
      break;
    }
    case 'html':
      html = decodeText(bytes);
      break;
    case 'text':
      html = textToHtml(decodeText(bytes));
      break;
    case 'docx':
      try {
        const converted = await docxToHtml(bytes, { pictures: withPictures });
        html = converted.html;
        pictures = converted.pictures;
        if (converted.skipped > 0) degraded.set('image_skipped', converted.skipped);
      } catch (error) {
        if (error instanceof CorruptFileError) {
          throw unprocessable(
            'This Word file could not be read. It may be damaged or not a .docx file.',
            'import_failed',
          );
        }
        throw error;
      }
      break;
  }
  const { json } = htmlToDocumentJson(html, degraded, new Set(pictures.map((picture) => picture.src)));
  // A skipped picture became its alt text too: it is told once, as skipped.
  const skipped = degraded.get('image_skipped') ?? 0;
  const asAlt = (degraded.get('image') ?? 0) - skipped;
  if (skipped > 0) {
    if (asAlt > 0) degraded.set('image', asAlt);
    else degraded.delete('image');
  }
  const checked = sanitizeDocContent(json);
  if (!checked.ok) {
    throw unprocessable(`The file could not be turned into a document: ${checked.message}`, 'import_failed');
  }
  tidy(checked.doc.content);
  if (format === 'text')
    return {
      title: fitTitle(titleFromFileName(fileName)),
      content: checked.doc,
      degraded: [],
      pictures: [],
    };
  const { title, content } = takeTitle(checked.doc, fileName);
  const kept = whole ? checked.doc : content;
  // Only pictures that made it into the content are worth storing.
  const used = new Set(imageSources(kept.content));
  return {
    title,
    content: kept,
    degraded: describeDegradations(degraded),
    pictures: pictures.filter((picture) => used.has(picture.src)),
  };
}
