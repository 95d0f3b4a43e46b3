import type { Plugin } from 'vite';
import { THEME_INIT_SCRIPT } from '../src/shared/theme-init.js';

const PLACEHOLDER = '<!-- theme-init -->';

/** Puts the theme script (src/shared/theme-init.ts) inline where index.html marks its place. */
export function inlineThemeInit(): Plugin {
  return {
    name: 'quillwright-theme-init',
    transformIndexHtml(html) {
      if (!html.includes(PLACEHOLDER)) throw new Error(`index.html has no ${PLACEHOLDER} placeholder`);
      return html.replace(PLACEHOLDER, `<script>${THEME_INIT_SCRIPT}</script>`);
    },
  };
}
