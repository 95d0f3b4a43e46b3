import { negotiate } from '@fastify/accept-negotiator';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

type Encoding = 'br' | 'gzip';

export interface EncodedHtml {
  body: string | Buffer;
  encoding: Encoding | null;
}

// index.html carries the app's stylesheet inline (scripts/vite-inline-css.ts): ≈ 85 KB raw, ≈ 15 KB compressed.
// Most routes get the same page, so its compressed forms are made once (thoroughly) and kept until the build
// changes it; a page made for one request (a shared document's own title and description) is compressed quickly.
let lastPage: { html: string; br: Buffer; gzip: Buffer } | null = null;

function compress(html: string, encoding: Encoding, thorough: boolean): Buffer {
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
  const encoding = acceptEncoding ? negotiate<Encoding>(acceptEncoding, ['br', 'gzip']) : null;
  if (!encoding) return { body: html, encoding: null };
  if (!options.sameForEveryone) return { body: compress(html, encoding, false), encoding };
  if (lastPage?.html !== html) {
    lastPage = { html, br: compress(html, 'br', true), gzip: compress(html, 'gzip', true) };
  }
  return { body: lastPage[encoding], encoding };
}
