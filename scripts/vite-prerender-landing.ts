import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, type Plugin, type ResolvedConfig } from 'vite';
import { LANDING_ONLY_ATTRIBUTE } from './vite-landing-preload.js';
import {
  APP_SCRIPTS_ATTRIBUTE,
  LANDING_HTML_FILE,
  PRERENDERED_ATTRIBUTE,
  SIGNED_IN_CLASS,
} from '../src/shared/first-paint.js';

const ROOT = '<div id="root"></div>';
const RENDER_MODULE = '/features/landing/prerender.tsx';
const APP_SCRIPT_TAG = /<script type="module"[^>]*><\/script>|<link rel="modulepreload"[^>]*>/g;

/**
 * Writes the landing page's HTML into a copy of index.html (dist/client/landing.html), which the server sends for
 * `/`. A visitor's first paint then needs only the HTML and its inline stylesheet, not the 96 KB of JavaScript
 * that draws the page (on Lighthouse's slow 4G that was about a second). The app still renders the page itself
 * once its code is in (main.tsx waits for the landing chunk, so its first render is the same markup): it replaces
 * this copy in one commit, without hydration. A signed-in writer's `/` is the dashboard, so the copy is hidden
 * under the class the first-paint script sets when a session is stored.
 */
export function prerenderLanding(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'quillwright-prerender-landing',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async writeBundle() {
      // The app's own modules, loaded the way Vite's dev server would load them for server rendering.
      const server = await createServer({
        configFile: config.configFile,
        root: config.root,
        mode: config.mode,
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, watch: null },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const { renderLandingPage } = (await server.ssrLoadModule(RENDER_MODULE)) as {
          renderLandingPage: () => Promise<string>;
        };
        const page = await renderLandingPage();
        const outDir = config.build.outDir;
        const built = readFileSync(path.join(outDir, 'index.html'), 'utf8');
        // Preloads only the landing page needs (scripts/vite-landing-preload.ts): kept here, not in index.html.
        const landingOnly = new RegExp(`<link [^>]*${LANDING_ONLY_ATTRIBUTE}[^>]*>`, 'g');
        writeFileSync(path.join(outDir, 'index.html'), built.replace(landingOnly, ''));
        const index = built.replaceAll(` ${LANDING_ONLY_ATTRIBUTE}`, '');
        if (!index.includes(ROOT)) throw new Error(`index.html has no empty ${ROOT}`);
        if (!/<script type="module"/.test(index)) throw new Error('index.html has no module entry script');
        const copy = `[${PRERENDERED_ATTRIBUTE}]`;
        const hide = `<style>${copy}{display:contents}html.${SIGNED_IN_CLASS} ${copy}{display:none}</style>`;
        // The tags that bring the app's code wait in a template until the page has been painted (the first-paint
        // script moves them into the head): the page is readable without them, and on a slow link they would
        // share it with what the first paint needs, the HTML itself and the interface font.
        const appScripts: string[] = [];
        const landing = index
          .replace(APP_SCRIPT_TAG, (tag) => {
            appScripts.push(tag);
            return '';
          })
          .replace(
            '</head>',
            () => `${hide}<template ${APP_SCRIPTS_ATTRIBUTE}>${appScripts.join('')}</template></head>`,
          )
          .replace(ROOT, () => `<div id="root"><div ${PRERENDERED_ATTRIBUTE}>${page}</div></div>`);
        writeFileSync(path.join(outDir, LANDING_HTML_FILE), landing);
      } finally {
        await server.close();
      }
    },
  };
}
