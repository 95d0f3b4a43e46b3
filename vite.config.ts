import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig } from 'vite';
import { editorPageHtml } from './scripts/vite-editor-html.js';
import { preloadLandingChunk } from './scripts/vite-landing-preload.js';
import { precompress } from './scripts/vite-precompress.js';
import { prerenderLanding } from './scripts/vite-prerender-landing.js';
import { preloadUiFont } from './scripts/vite-preload-font.js';
import { inlineEntryStylesheet } from './scripts/vite-inline-css.js';
import { inlineFirstPaintScript } from './scripts/vite-first-paint.js';

const apiPort = process.env.PORT ?? '3000';

const CLIENT_MODULE = /[\\/]src[\\/]client[\\/].+\.tsx?$/;

export default defineConfig({
  root: 'src/client',
  publicDir: path.resolve('src/client/public'),
  plugins: [
    react(),
    tailwindcss(),
    inlineFirstPaintScript(),
    preloadUiFont(),
    preloadLandingChunk(),
    inlineEntryStylesheet(),
    precompress(),
    prerenderLanding(),
    editorPageHtml(),
  ],
  resolve: {
    alias: {
      '@shared': path.resolve('src/shared'),
      '@client': path.resolve('src/client'),
    },
  },
  // The live-grammar worker (features/ai/grammar.worker.ts) is a module worker: it imports harper.js, whose
  // code splits into chunks, which the default classic (IIFE) worker format cannot hold.
  worker: { format: 'es' },
  build: {
    outDir: path.resolve('dist/client'),
    emptyOutDir: true,
    sourcemap: false,
    // bench/web.ts reads .vite/manifest.json to measure each page's initial JavaScript.
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // The app's own modules do nothing when imported but define things (styles are CSS modules, not
        // matched here): a module none of whose exports is used is left out. Without this, a feature's
        // index.ts would bring every module it re-exports, used or not, into each page that imports it.
        moduleSideEffects: (id) => (CLIENT_MODULE.test(id) ? false : undefined),
      },
      output: {
        codeSplitting: {
          // TanStack Query comes with the pages that read server data, not the entry (routes.tsx): one chunk
          // rather than one per combination of pages that share a piece of it.
          groups: [
            {
              name: 'tanstack-query',
              test: /node_modules[\\/]@tanstack[\\/]/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, ws: true },
    },
  },
});
