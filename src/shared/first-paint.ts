/** Where the browser keeps the writer's theme choice ('light', 'dark' or 'system'). */
export const THEME_STORAGE_KEY = 'quillwright.theme';

/** Where the browser keeps the signed-in session (lib/session-store.ts). */
export const SESSION_STORAGE_KEY = 'quillwright.auth.session';

/**
 * Set on `<html>` before first paint when a session is stored. The landing page's HTML rendered at build time
 * (scripts/vite-prerender-landing.ts) is hidden under it: a signed-in writer's `/` is the dashboard, which the app
 * draws, and they should not see the visitors' page flash first.
 */
export const SIGNED_IN_CLASS = 'qw-signed-in';

/** The build's copy of index.html with the landing page's markup in it, which the server sends for `/`. */
export const LANDING_HTML_FILE = 'landing.html';

/** The build's copy of index.html that preloads the editor's code, which the server sends for `/editor/…`. */
export const EDITOR_HTML_FILE = 'editor.html';
/**
 * The editor's routes (`/editor` and `/editor/:id`; the id, if any, in group 1): the server sends them
 * EDITOR_HTML_FILE (server/spa.ts), and the app waits for the editor's code before its first render on them
 * (client/routes.tsx, preloadEditorPage).
 */
export const EDITOR_PATH = /^\/editor(?:\/([^/]*))?\/?$/;

/** Marks the landing page's build-time copy inside `#root`, until the app replaces it with its own render. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/**
 * On a page that is readable without the app's code (the landing page's build-time HTML), the `<script>` and
 * `<link rel="modulepreload">` tags that bring it are kept in a `<template>` with this attribute: the first-paint
 * script puts them into the page once it has been painted.
 */
export const APP_SCRIPTS_ATTRIBUTE = 'data-app-scripts';

/**
 * What must happen before the first paint: the stored theme applied (a dark-theme writer never sees a white
 * flash) and the signed-in mark set. On a page whose HTML already shows it (the landing page), the app's code
 * is fetched and started only after that first paint: the page's HTML and font get the link to themselves, and
 * a slow phone draws the page before it evaluates any script.
 * It is written into index.html's head at build time (scripts/vite-first-paint.ts) rather than fetched: a script
 * file there blocks the first paint for a round trip. The server's Content-Security-Policy allows exactly this
 * text by its SHA-256 hash (src/server/app.ts), and no other inline script.
 */
export const FIRST_PAINT_SCRIPT =
  `(function(){var d=document.documentElement;try{` +
  `var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)})||'system';` +
  `d.classList.toggle('dark',t==='dark'||(t==='system'&&window.matchMedia('(prefers-color-scheme: dark)').matches));` +
  `if(localStorage.getItem(${JSON.stringify(SESSION_STORAGE_KEY)}))d.classList.add(${JSON.stringify(SIGNED_IN_CLASS)})` +
  `}catch(e){}` +
  `document.addEventListener('DOMContentLoaded',function(){` +
  `var t=document.querySelector('template[${APP_SCRIPTS_ATTRIBUTE}]');if(!t)return;` +
  `function s(){document.head.appendChild(document.importNode(t.content,true))}` +
  // A frame's callbacks run before its paint; the timeout after it. A hidden tab paints nothing: start at once.
  `if(document.visibilityState==='hidden')s();else requestAnimationFrame(function(){setTimeout(s)})})})();`;
