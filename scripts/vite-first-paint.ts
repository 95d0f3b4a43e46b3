import type { Plugin } from 'vite';
import { FIRST_PAINT_SCRIPT } from '../src/shared/first-paint.js';

const PLACEHOLDER = '<!-- first-paint -->';

/** Puts the first-paint script (src/shared/first-paint.ts) inline where index.html marks its place. */
export function inlineFirstPaintScript(): Plugin {
  return {
    name: 'quillwright-first-paint',
    transformIndexHtml(html) {
      if (!html.includes(PLACEHOLDER)) throw new Error(`index.html has no ${PLACEHOLDER} placeholder`);
      return html.replace(PLACEHOLDER, `<script>${FIRST_PAINT_SCRIPT}</script>`);
    },
  };
}
