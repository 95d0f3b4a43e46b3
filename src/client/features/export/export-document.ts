import { generateHTML } from '@tiptap/html';
import { Packer } from 'docx';
import { PRINT_DELAY_MS } from '@shared/constants';
import { createRenderExtensions } from '@shared/editor/extensions';
import { documentToMarkdown, documentToText, standaloneHtml } from '@shared/export/convert';
import { documentToDocx } from '@shared/export/docx';
import { EXPORT_MIME_TYPES, exportFileName, type ExportFormat } from '@shared/export/filename';
import type { RichTextDoc } from '@shared/schemas/richText';
import { rejectAllSuggestions } from '@shared/suggestions/resolve';
import { sanitizeRenderedHtml } from '@client/lib/sanitize-html';

// Loaded on demand by the Export menu: Word and Markdown writers stay out of the editor's first load.

function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function documentHtml(title: string, doc: RichTextDoc): string {
  return standaloneHtml(title, sanitizeRenderedHtml(generateHTML(doc, createRenderExtensions(doc))));
}

/**
 * Builds the file in the browser (no server call: works offline, nothing leaves the machine) and downloads
 * it; PDF opens the print view.
 */
export async function exportDocument(
  format: ExportFormat,
  title: string,
  withSuggestions: RichTextDoc,
): Promise<void> {
  const name = title.trim() || 'Untitled Document';
  // Word keeps pending tracked changes as revisions; every other format shows the text as it stood.
  const doc = format === 'docx' ? withSuggestions : rejectAllSuggestions(withSuggestions);
  if (format === 'pdf') {
    const view = window.open('', '_blank');
    if (!view) throw new Error('The print view was blocked by the browser');
    view.document.open();
    view.document.write(documentHtml(name, doc));
    view.document.close();
    setTimeout(() => {
      view.focus();
      view.print();
    }, PRINT_DELAY_MS);
    return;
  }
  const fileName = exportFileName(title, format);
  if (format === 'docx') {
    download(await Packer.toBlob(documentToDocx(name, doc)), fileName);
    return;
  }
  const body =
    format === 'md'
      ? documentToMarkdown(name, doc)
      : format === 'txt'
        ? documentToText(name, doc)
        : documentHtml(name, doc);
  download(new Blob([body], { type: EXPORT_MIME_TYPES[format] }), fileName);
}
