import { generateHTML } from '@tiptap/html/server';
import { Packer } from 'docx';
import sanitizeHtml from 'sanitize-html';
import { createRenderExtensions } from '../../shared/editor/extensions';
import { sanitizeHtmlOptions } from '../../shared/editor/html-policy';
import { documentToMarkdown, documentToText, standaloneHtml } from '../../shared/export/convert';
import { documentToDocx, type DocxPictures } from '../../shared/export/docx';
import { rejectAllSuggestions } from '../../shared/suggestions/resolve';
import { repairRichText } from '../../shared/editor/validate';
import { EXPORT_MIME_TYPES, exportFileName } from '../../shared/export/filename';
import type { RichTextDoc } from '../../shared/schemas/richText';

import type { ServerExportFormat } from './formats';

export { type ServerExportFormat } from './formats';

const RENDERED_HTML_OPTIONS = sanitizeHtmlOptions();

/** Rendered HTML reduced to the one rendered-HTML policy (src/shared/editor/html-policy.ts). */
function sanitizeDocumentHtml(html: string): string {
  return sanitizeHtml(html, RENDERED_HTML_OPTIONS);
}

function documentToSafeHtml(doc: RichTextDoc): string {
  return sanitizeDocumentHtml(generateHTML(doc, createRenderExtensions(doc)));
}

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: string | Buffer;
}

/** Every image address in the content, once each, in order. */
function imageSourcesOf(content: RichTextDoc): string[] {
  const found = new Set<string>();
  const walk = (nodes: RichTextDoc['content'] | undefined) => {
    for (const node of nodes ?? []) {
      if (node.type === 'image' && typeof node.attrs?.src === 'string') found.add(node.attrs.src);
      walk(node.content);
    }
  };
  walk(content.content);
  return [...found];
}

/** Reads the pictures a Word file embeds for the given image addresses (the reader's access applies). */
export type PictureReader = (sources: string[]) => Promise<DocxPictures>;

export async function exportDocument(
  title: string,
  storedContent: unknown,
  format: ServerExportFormat,
  now = new Date(),
  readPictures?: PictureReader,
): Promise<ExportFile> {
  const fileName = exportFileName(title, format, now);
  const contentType = EXPORT_MIME_TYPES[format];
  // Stored content passed the validator when it was written; repairing it again here means an export can
  // never fail (or carry an unsafe href) on content stored before a rule existed.
  const content = repairRichText(storedContent).doc;
  // Pending tracked changes: Word keeps them as revisions; the other formats have no such thing and get
  // the text as it stood (every pending change rejected).
  const asItStood = () => rejectAllSuggestions(content);
  switch (format) {
    case 'md':
      return { fileName, contentType, body: documentToMarkdown(title, asItStood()) };
    case 'txt':
      return { fileName, contentType, body: documentToText(title, asItStood()) };
    case 'html':
      return { fileName, contentType, body: standaloneHtml(title, documentToSafeHtml(asItStood())) };
    case 'docx': {
      const sources = imageSourcesOf(content);
      const pictures = readPictures && sources.length > 0 ? await readPictures(sources) : new Map();
      return {
        fileName,
        contentType,
        body: await Packer.toBuffer(documentToDocx(title, content, { pictures })),
      };
    }
  }
}
