import { MAX_RICH_TEXT_DEPTH, MAX_RICH_TEXT_NODES } from '../../shared/schemas/richText';

/**
 * Bounds checked before a file reaches a parser. A few megabytes of hostile input can otherwise exhaust
 * the stack (thousands of nested quotes or elements: recursive parsers) or the heap (a deeply indented
 * Markdown list; a Word file that is a zip bomb), taking the server down for everyone.
 */

/** Elements nested deeper than this cannot become a document anyway (the schema allows 64 levels). */
export const IMPORT_MAX_HTML_DEPTH = MAX_RICH_TEXT_DEPTH * 2;
/** More elements than the document may have nodes: refused before a DOM is built for them. */
export const IMPORT_MAX_HTML_ELEMENTS = MAX_RICH_TEXT_NODES;
/** Nested quotes and list levels a Markdown line may open. */
export const IMPORT_MAX_MARKDOWN_NESTING = MAX_RICH_TEXT_DEPTH;
/** Everything inside a .docx, uncompressed (a real 5,000-word document is well under 1 MB). */
export const IMPORT_MAX_DOCX_UNCOMPRESSED_BYTES = 64 * 1024 * 1024;

export class ImportTooComplexError extends Error {
  override name = 'ImportTooComplexError';
}

/** Refuses Markdown whose quotes and list indentation nest deeper than IMPORT_MAX_MARKDOWN_NESTING. */
export function assertMarkdownNesting(source: string): void {
  for (const line of source.split('\n')) {
    const lead = /^[\s>]*/.exec(line)![0];
    if (lead.length <= IMPORT_MAX_MARKDOWN_NESTING) continue;
    let quotes = 0;
    let indent = 0;
    for (const char of lead) {
      if (char === '>') quotes++;
      else indent += char === '\t' ? 4 : 1;
    }
    // A list level takes at least two columns of indentation.
    if (quotes + Math.floor(indent / 2) > IMPORT_MAX_MARKDOWN_NESTING) {
      throw new ImportTooComplexError(
        `The file nests quotes or lists more than ${IMPORT_MAX_MARKDOWN_NESTING} levels deep.`,
      );
    }
  }
}

/**
 * Reads a zip's central directory (no decompression) and refuses one whose entries would expand beyond
 * IMPORT_MAX_DOCX_UNCOMPRESSED_BYTES. A buffer that is not a zip is left to the Word reader to refuse.
 */
export function assertZipExpansion(bytes: Buffer): void {
  const END_SIGNATURE = 0x06054b50;
  const ENTRY_SIGNATURE = 0x02014b50;
  // The end record is 22 bytes plus a comment of at most 65,535.
  const searchFrom = Math.max(0, bytes.length - 22 - 0xffff);
  let end = -1;
  for (let i = bytes.length - 22; i >= searchFrom; i--) {
    if (bytes.readUInt32LE(i) === END_SIGNATURE) {
      end = i;
      break;
    }
  }
  if (end < 0) return;
  const entries = bytes.readUInt16LE(end + 10);
  let offset = bytes.readUInt32LE(end + 16);
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (offset + 46 > bytes.length || bytes.readUInt32LE(offset) !== ENTRY_SIGNATURE) return;
    const uncompressed = bytes.readUInt32LE(offset + 24);
    // 0xFFFFFFFF means the real size is in a Zip64 field: far beyond any document either way.
    total += uncompressed === 0xffffffff ? Infinity : uncompressed;
    if (total > IMPORT_MAX_DOCX_UNCOMPRESSED_BYTES) {
      throw new ImportTooComplexError('The Word file expands to more data than a document can hold.');
    }
    offset +=
      46 +
      bytes.readUInt16LE(offset + 28) +
      bytes.readUInt16LE(offset + 30) +
      bytes.readUInt16LE(offset + 32);
  }
}

/** Markdown parsing gives up after this long (a real 5,000-word file takes a few milliseconds). */
export const IMPORT_MARKDOWN_TIMEOUT_MS = 5_000;
