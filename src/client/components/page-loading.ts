/**
 * The full-page loading spinner. React draws it (PageFallback in routes.tsx) while a page's code is fetched, and
 * the editor page's HTML holds it from the first paint (scripts/vite-editor-html.ts): the app renders the editor
 * only once its code is in (routes.tsx, preloadEditorPage), and on a slow link that is a while. Plain strings, so
 * the build can write the same markup into the HTML; the app's first render replaces it.
 */
export const PAGE_LOADING_CLASS = 'grid min-h-dvh place-items-center';
export const PAGE_LOADING_SPINNER_CLASS =
  'size-6 animate-spin rounded-full border-2 border-primary/25 border-t-primary';
export const PAGE_LOADING_LABEL = 'Loading…';

export const PAGE_LOADING_HTML =
  `<div class="${PAGE_LOADING_CLASS}" role="status" aria-live="polite">` +
  `<span class="${PAGE_LOADING_SPINNER_CLASS}"></span><span class="sr-only">${PAGE_LOADING_LABEL}</span></div>`;
