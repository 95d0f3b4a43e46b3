import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin, ResolvedConfig, Rolldown } from 'vite';
import { EARLY_STATE_SCRIPT } from '../src/shared/editor-early-request.js';
import { EDITOR_HTML_FILE } from '../src/shared/first-paint.js';
import { PAGE_LOADING_HTML } from '../src/client/components/page-loading.js';
import { chunksImportedBy } from './chunk-graph.js';

/** The modules the editor's route loads (routes.tsx: the page, inside the query provider). */
const EDITOR_ROUTE_MODULES = [/src\/client\/editor-page\.tsx$/, /src\/client\/lib\/with-queries\.tsx$/];
const EMPTY_ROOT = '<div id="root"></div>';
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*href="\/([^"]+)"[^>]*>/g;

/**
 * Writes dist/client/editor.html, the copy of index.html the server sends for `/editor/…`: it preloads the editor
 * route's chunks, and every chunk they import however deep, instead of the landing page's. Without it the
 * browser asks for the editor's code only once the entry has run and the route has matched, and spends the
 * wait fetching and compiling the landing page a signed-in writer opening a document never shows
 * (bench:editor, opening).
 */
export function editorPageHtml(): Plugin {
  let config: ResolvedConfig;
  let editorFiles: string[] = [];
  let loadedByEntry = new Set<string>();
  return {
    name: 'quillwright-editor-html',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (output): output is Rolldown.OutputChunk => output.type === 'chunk',
      );
      const entry = chunks.find((chunk) => chunk.isEntry);
      const roots = chunks.filter((chunk) =>
        EDITOR_ROUTE_MODULES.some((module) => chunk.facadeModuleId && module.test(chunk.facadeModuleId)),
      );
      if (!entry || roots.length !== EDITOR_ROUTE_MODULES.length) {
        throw new Error('the editor route’s chunks are not in the bundle');
      }
      const needed = chunksImportedBy(
        chunks,
        roots.map((root) => root.fileName),
      );
      loadedByEntry = new Set([entry.fileName, ...entry.imports]);
      editorFiles = [...needed].filter((file) => !loadedByEntry.has(file));
    },
    // After the other plugins have written index.html in its final form.
    writeBundle: {
      order: 'post',
      handler() {
        const outDir = config.build.outDir;
        const index = readFileSync(path.join(outDir, 'index.html'), 'utf8');
        const base = config.base;
        // The entry's own imports stay; the landing page's go.
        const kept = index.replace(MODULE_PRELOAD, (tag: string, file: string) =>
          loadedByEntry.has(file) ? tag : '',
        );
        const links = editorFiles
          .map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`)
          .join('\n');
        if (!kept.includes('</head>')) throw new Error('index.html has no </head>');
        if (!kept.includes(EMPTY_ROOT)) throw new Error(`index.html has no empty ${EMPTY_ROOT}`);
        writeFileSync(
          path.join(outDir, EDITOR_HTML_FILE),
          withEarlyRequest(
            kept
              .replace('</head>', () => `${links}\n</head>`)
              // The page's spinner from the first paint: the app renders only once the editor's code is in.
              .replace(EMPTY_ROOT, () => `<div id="root">${PAGE_LOADING_HTML}</div>`),
          ),
        );
      },
    },
  };
}

const CHARSET = /<meta charset="[^"]*"\s*\/?>/i;

/**
 * Puts the early request of the document's state (shared/editor-early-request.ts) first in the head, right after
 * the charset: it starts before the browser reads the page's inline stylesheet and preload links.
 */
export function withEarlyRequest(html: string): string {
  if (!CHARSET.test(html)) throw new Error('index.html has no <meta charset>');
  return html.replace(CHARSET, (charset) => `${charset}\n<script>${EARLY_STATE_SCRIPT}</script>`);
}
