/** Where the browser keeps the writer's theme choice ('light', 'dark' or 'system'). */
export const THEME_STORAGE_KEY = 'quillwright.theme';

/**
 * Applies the stored theme before first paint, so a dark-theme writer never sees a white flash. It is written
 * into index.html's head at build time (scripts/vite-theme-init.ts) rather than fetched: a script file there
 * blocks the first paint for a round trip. The server's Content-Security-Policy allows exactly this text by its
 * SHA-256 hash (src/server/app.ts), and no other inline script.
 */
export const THEME_INIT_SCRIPT =
  `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)})||'system';` +
  `document.documentElement.classList.toggle('dark',t==='dark'||(t==='system'&&` +
  `window.matchMedia('(prefers-color-scheme: dark)').matches))}catch(e){}})();`;
