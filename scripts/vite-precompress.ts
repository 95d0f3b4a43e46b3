import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|wasm)$/;
const MIN_BYTES = 1024;
// Brotli's best quality takes about a minute on Harper's 16 MB WASM (the live-grammar worker's binary);
// quality 5 with the largest window takes a second and is 6 % larger, for a file browsers cache for a year.
const LARGE_BYTES = 1024 * 1024;

/**
 * Writes `.br` and `.gz` siblings of every compressible build file, once, at build time. The server's
 * static handler (`preCompressed: true` in src/server/app.ts) sends them to browsers that accept them,
 * so a visitor downloads about a third of the bytes without the server compressing on each request.
 */
export function precompress(): Plugin {
  return {
    name: 'quillwright-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const outDir = options.dir ?? path.resolve('dist/client');
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const content = readFileSync(file);
        if (content.length < MIN_BYTES) continue;
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params:
              content.length > LARGE_BYTES
                ? {
                    [constants.BROTLI_PARAM_QUALITY]: 5,
                    [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
                    [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
                  }
                : {
                    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                    [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
                  },
          }),
        );
      }
    },
  };
}
