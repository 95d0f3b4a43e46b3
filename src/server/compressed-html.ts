import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { acceptedEncoding, type ContentEncoding } from './compressed-response';

export interface EncodedHtml {
  body: string | Buffer;
  encoding: ContentEncoding | null;
}

// index.html carries the app's stylesheet inline (scripts/vite-inline-css.ts): ≈ 85 KB raw, ≈ 15 KB compressed.
// Every route gets one of three pages (index.html, landing.html for `/`, editor.html for the editor), so their
// compressed forms are made once (thoroughly) and kept; a rebuild brings new pages and the oldest are dropped. A
// page made for one request (a shared document's own title and description) is compressed quickly and not kept.
const KEPT_PAGES = 6;
const keptPages = new Map<string, { br: Buffer; gzip: Buffer }>();

function compress(html: string, encoding: ContentEncoding, thorough: boolean): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: thorough ? 11 : 4 } })
    : gzipSync(html, { level: thorough ? 9 : 6 });
}

/** The page in the best encoding the browser accepts (`Accept-Encoding`), or as it is. */
export function encodeHtml(
  html: string,
  acceptEncoding: string | undefined,
  options: { sameForEveryone: boolean },
): EncodedHtml {
  const encoding = acceptedEncoding(acceptEncoding);
  if (!encoding) return { body: html, encoding: null };
  if (!options.sameForEveryone) return { body: compress(html, encoding, false), encoding };
  let kept = keptPages.get(html);
  if (!kept) {
    kept = { br: compress(html, 'br', true), gzip: compress(html, 'gzip', true) };
    keptPages.set(html, kept);
    if (keptPages.size > KEPT_PAGES) keptPages.delete(keptPages.keys().next().value!);
  }
  return { body: kept[encoding], encoding };
}
