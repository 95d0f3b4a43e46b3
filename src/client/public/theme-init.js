// Applies the cached theme before first paint so a dark-theme user never sees a white flash.
// Kept in sync with features/settings/theme.tsx (same storage key and class). External file: the CSP forbids
// inline scripts.
(function () {
  try {
    var theme = localStorage.getItem('quillwright.theme') || 'system';
    var dark =
      theme === 'dark' || (theme === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
  } catch {
    // storage blocked: stay light
  }
})();
