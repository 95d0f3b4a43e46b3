import type { Plugin } from 'vite';

/** The interface's text face (Inter, upright, Latin): styles/fonts.css declares it, index.css uses it. */
const UI_FONT = /(^|\/)inter-latin-wght-normal-[\w-]+\.woff2$/;

/**
 * The browser only finds the interface font once the stylesheet is parsed and text using it is rendered, which on
 * a slow link is after the first paint: the text is drawn in the fallback, then re-flows when Inter arrives (the
 * landing page's editor preview moved down by a tenth of the screen, Lighthouse CLS 0.095). A preload in
 * index.html fetches it alongside the scripts.
 */
export function preloadUiFont(): Plugin {
  return {
    name: 'quillwright-preload-ui-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const font = Object.keys(ctx.bundle ?? {}).find((file) => UI_FONT.test(file));
        if (!font) throw new Error('the Inter woff2 file is missing from the build');
        return [
          {
            tag: 'link',
            attrs: { rel: 'preload', as: 'font', type: 'font/woff2', crossorigin: true, href: `/${font}` },
            injectTo: 'head' as const,
          },
        ];
      },
    },
  };
}
