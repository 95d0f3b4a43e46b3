import { generateHTML } from '@tiptap/html/server';
import { Packer } from 'docx';
import sanitizeHtml from 'sanitize-html';
import { ALLOWED_LINK_PROTOCOLS } from '../../shared/constants';
import { createEditorExtensions } from '../../shared/editor/extensions';
import { documentToMarkdown, documentToText, standaloneHtml } from '../../shared/export/convert';
import { documentToDocx } from '../../shared/export/docx';
import { repairRichText } from '../../shared/editor/validate';
import { EXPORT_MIME_TYPES, exportFileName } from '../../shared/export/filename';
import type { RichTextDoc } from '../../shared/schemas/richText';

import type { ServerExportFormat } from './formats';

export { SERVER_EXPORT_FORMATS, type ServerExportFormat } from './formats';

const extensions = createEditorExtensions({ history: false });

/**
 * Allow-list sanitizing of rendered HTML: only the elements and attributes the editor produces, links only
 * with whitelisted protocols and always with the safe rel. Content was validated when stored; this is
 * the second line of defence for anything rendered or exported.
 */
export function sanitizeDocumentHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'p',
      'h1',
      'h2',
      'h3',
      'ul',
      'ol',
      'li',
      'blockquote',
      'pre',
      'code',
      'hr',
      'br',
      'strong',
      'em',
      'u',
      's',
      'a',
      'span',
    ],
    allowedAttributes: {
      a: ['href', 'target', 'rel'],
      ol: ['start'],
      code: ['class'],
      span: ['style', 'data-ai-suggestion'],
      p: ['style'],
      h1: ['style'],
      h2: ['style'],
      h3: ['style'],
    },
    allowedStyles: {
      '*': {
        'text-align': [/^(left|center|right|justify)$/],
        color: [/^#[0-9a-f]{3,8}$/i, /^rgb\(\s*\d+\s*,\s*\d+\s*,\s*\d+\s*\)$/],
        'font-size': [/^\d{1,3}(\.\d+)?px$/],
        'font-family': [/^[\w\s"',-]{1,100}$/],
      },
    },
    allowedSchemes: [...ALLOWED_LINK_PROTOCOLS],
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' },
      }),
    },
  });
}

export function documentToSafeHtml(doc: RichTextDoc): string {
  return sanitizeDocumentHtml(generateHTML(doc, extensions));
}

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: string | Buffer;
}

export async function exportDocument(
  title: string,
  storedContent: unknown,
  format: ServerExportFormat,
  now = new Date(),
): Promise<ExportFile> {
  const fileName = exportFileName(title, format, now);
  const contentType = EXPORT_MIME_TYPES[format];
  // Stored content passed the validator when it was written; repairing it again here means an export can
  // never fail (or carry an unsafe href) on content stored before a rule existed.
  const content = repairRichText(storedContent).doc;
  switch (format) {
    case 'md':
      return { fileName, contentType, body: documentToMarkdown(title, content) };
    case 'txt':
      return { fileName, contentType, body: documentToText(title, content) };
    case 'html':
      return { fileName, contentType, body: standaloneHtml(title, documentToSafeHtml(content)) };
    case 'docx':
      return { fileName, contentType, body: await Packer.toBuffer(documentToDocx(title, content)) };
  }
}
