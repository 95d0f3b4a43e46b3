import { EXPORT_FILENAME_FALLBACK } from '../constants';

export type ExportFormat = 'pdf' | 'md' | 'html' | 'txt' | 'docx';

/**
 * Export file names: the title lower-cased with every non-alphanumeric character replaced by `_` (fallback
 * `document`), then the ISO date. "My Essay!" exported on 2026-11-22 → `my_essay__2026-11-22.md`.
 */
export function exportFileName(title: string, extension: string, now: Date = new Date()): string {
  const base =
    title
      .trim()
      .replace(/[^a-z0-9]/gi, '_')
      .toLowerCase() || EXPORT_FILENAME_FALLBACK;
  return `${base}_${now.toISOString().slice(0, 10)}.${extension}`;
}

export const EXPORT_MIME_TYPES: Record<Exclude<ExportFormat, 'pdf'>, string> = {
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
