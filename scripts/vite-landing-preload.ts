import type { Plugin } from 'vite';
import { chunksImportedBy } from './chunk-graph.js';

const LANDING_MODULE = /src\/client\/features\/landing\/LandingPage\.tsx$/;
// The sections below the feature tour: a chunk of their own, which main.tsx also waits for before a visitor's
// first render (the page is already painted from its build-time HTML by then).
const LANDING_LATER_MODULE = /src\/client\/features\/landing\/LandingLater\.tsx$/;
export const LANDING_ONLY_ATTRIBUTE = 'data-landing-only';

/**
 * The landing page is a lazy route, so without help the browser only asks for its chunk after the entry
 * has downloaded and run: one more round trip before a first-time visitor sees anything. This adds
 * `<link rel="modulepreload">` for the landing chunk and its imports to index.html so they download in
 * parallel with the entry. (Signed-in users fetch these too but never run them.)
 */
export function preloadLandingChunk(): Plugin {
  return {
    name: 'quillwright-preload-landing',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((o) => o.type === 'chunk');
        const landing = chunks.find((c) => c.facadeModuleId && LANDING_MODULE.test(c.facadeModuleId));
        const entry = ctx.chunk;
        if (!landing || !entry) return [];
        // Every chunk the landing chunk needs, however deep.
        const forEveryone = chunksImportedBy(chunks, [landing.fileName]);
        const later = chunks.find((c) => c.facadeModuleId && LANDING_LATER_MODULE.test(c.facadeModuleId));
        const needed = later ? chunksImportedBy(chunks, [landing.fileName, later.fileName]) : forEveryone;
        const alreadyLoaded = new Set([entry.fileName, ...entry.imports]);
        const files = [...needed].filter((file) => !alreadyLoaded.has(file));
        const base = ctx.server?.config.base ?? '/';
        return files.map((file) => ({
          tag: 'link',
          attrs: {
            rel: 'modulepreload',
            crossorigin: true,
            href: `${base}${file}`,
            // Only a visitor's `/` waits for the later sections: landing.html keeps these, index.html drops them
            // (scripts/vite-prerender-landing.ts).
            ...(forEveryone.has(file) ? {} : { [LANDING_ONLY_ATTRIBUTE]: true }),
          },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
