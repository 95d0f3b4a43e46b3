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
const IMPORT_MAX_MARKDOWN_NESTING = MAX_RICH_TEXT_DEPTH;
/**
 * What a Word file's parts may expand to in all, counted as they are inflated (a real 5,000-word document
 * is well under 1 MB; a 150,000-word novel about 15 MB).
 */
export const IMPORT_MAX_UNCOMPRESSED_BYTES = 32 * 1024 * 1024;
/**
 * Pictures in a Word file are budgeted apart from its text: each may expand to at most the upload limit
 * (MAX_IMAGE_UPLOAD_BYTES; a larger one is skipped, the rest of the file still comes in), and all of them
 * together to at most this.
 */
export const IMPORT_MAX_IMAGE_BYTES = 40 * 1024 * 1024;
/** What the import says of pictures it could not bring in. */
export const skippedPicturesMessage = (count: number) =>
  `${count} ${count === 1 ? 'picture was' : 'pictures were'} skipped (too large, not an image Quillwright can show, ` +
  `or past the plan's image storage) and became ${count === 1 ? 'its' : 'their'} alt text`;
/** Where a Word file keeps its pictures. */
export const DOCX_MEDIA_FOLDER = 'word/media/';
/** Parts in a Word file's zip (a real one has 10–40, plus one per image). */
export const IMPORT_MAX_ZIP_ENTRIES = 1_000;

/**
 * Each import is converted in a worker thread (import-pool.ts): a slow or hostile file costs its own
 * worker, never the event loop or another writer's import. A worker over its heap is ended by V8; one
 * over its time is ended by the pool. Either way the import answers 422 and the slot gets a new worker.
 */
export const IMPORT_WORKER_HEAP_MB = 192;
/** Converting a real file takes milliseconds to a second; the rest of the budget is for a loaded server. */
export const IMPORT_TIME_BUDGET_MS = 10_000;
/** Imports converted at once; more wait their turn. Each writer holds at most one slot at a time. */
export const IMPORT_WORKER_SLOTS = 2;
/** A worker idle this long is stopped, giving its memory back (the next import starts a new one). */
export const IMPORT_WORKER_IDLE_MS = 60_000;

/** Imports a minute from one address (IMPORTS_PER_MINUTE) and from one account, whatever its address. */
export { IMPORTS_PER_MINUTE as IMPORTS_PER_ADDRESS_PER_MINUTE } from '../../shared/constants';
export const IMPORTS_PER_USER_PER_MINUTE = 60;

export class ImportTooComplexError extends Error {
  override name = 'ImportTooComplexError';
}

/** A picture over its limit (or past the file's picture budget): skipped, the import goes on. */
export class ImportImageTooLargeError extends Error {
  override name = 'ImportImageTooLargeError';
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
