import type { Plugin } from 'vite';

const LANDING_MODULE = /src\/client\/features\/landing\/LandingPage\.tsx$/;

/**
 * The landing page is a lazy route, so without help the browser only asks for its chunk after the entry
 * has downloaded and run: one more round trip before a first-time visitor sees anything. This adds
 * `<link rel="modulepreload">` for the landing chunk and its imports to index.html so they download in
 * parallel with the entry. (Signed-in users fetch these ~10 KB too but never run them.)
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
        const alreadyLoaded = new Set([entry.fileName, ...entry.imports]);
        const files = [landing.fileName, ...landing.imports].filter((file) => !alreadyLoaded.has(file));
        const base = ctx.server?.config.base ?? '/';
        return files.map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
