import { acceptedEncoding, compressBody, type ContentEncoding } from './compressed-response';

export interface EncodedHtml {
  body: string | Buffer;
  encoding: ContentEncoding | null;
}

// index.html carries the app's stylesheet inline (scripts/vite-inline-css.ts): ≈ 85 KB raw, ≈ 15 KB compressed.
// Every route gets one of three pages (index.html, landing.html for `/`, editor.html for the editor), so their
// thoroughly compressed forms are kept; a rebuild brings new pages and the oldest are dropped. Thorough brotli
// (quality 11) takes about 90 ms for such a page (124 ms for the landing page), which the first visitor after a
// start waited for while the server answered nobody else: it is made in zlib's thread pool, and until it is
// kept a page is sent quickly compressed (brotli 4 or gzip 6: about 2 ms, 2–4 KB larger). A page made for one
// request (a shared document's own title and description) is always compressed quickly and not kept.
const KEPT_PAGES = 6;
const keptPages = new Map<string, { br: Buffer; gzip: Buffer }>();
const pagesBeingKept = new Map<string, Promise<void>>();

function keepCompressed(html: string): Promise<void> {
  let pending = pagesBeingKept.get(html);
  if (!pending) {
    pending = Promise.all([compressBody(html, 'br', true), compressBody(html, 'gzip', true)])
      .then(([br, gzipped]) => {
        keptPages.set(html, { br, gzip: gzipped });
        if (keptPages.size > KEPT_PAGES) keptPages.delete(keptPages.keys().next().value!);
      })
      // Compressing cannot fail on a string; should it, the page keeps going out quickly compressed.
      .catch(() => undefined)
      .finally(() => pagesBeingKept.delete(html));
    pagesBeingKept.set(html, pending);
  }
  return pending;
}

/** Resolves once every page asked for so far is kept thoroughly compressed. */
export async function pagesCompressed(): Promise<void> {
  await Promise.all(pagesBeingKept.values());
}

/** The page in the best encoding the browser accepts (`Accept-Encoding`), or as it is. */
export async function encodeHtml(
  html: string,
  acceptEncoding: string | undefined,
  options: { sameForEveryone: boolean },
): Promise<EncodedHtml> {
  const encoding = acceptedEncoding(acceptEncoding);
  if (!encoding) return { body: html, encoding: null };
  const kept = options.sameForEveryone ? keptPages.get(html) : undefined;
  if (kept) return { body: kept[encoding], encoding };
  if (options.sameForEveryone) void keepCompressed(html);
  return { body: await compressBody(html, encoding), encoding };
}
