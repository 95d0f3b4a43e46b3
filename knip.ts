import type { KnipConfig } from 'knip';

/**
 * Unused files, exports and dependencies (`npm run knip`, part of `npm run check`). The entries are what is started
 * by path rather than imported and not already found by knip's plugins (Vite's index.html, the npm scripts, the
 * Vitest, Playwright and ESLint configs): the web app's Web Workers, the worker threads the server starts by file
 * name (their built copies are named in scripts/build-server.ts), the
 * command-line scripts, the benchmarks with the bare TipTap page they build, and the browser tests.
 */
const config: KnipConfig = {
  entry: [
    'src/client/**/*.worker.ts',
    'src/server/ai/grammar-worker.ts',
    'src/server/imports/import-worker.ts',
    'src/server/compile/compile-worker.ts',
    'scripts/*.ts',
    'bench/*.ts',
    'bench/editor-baseline/main.ts',
    'e2e/**/*.e2e.ts',
  ],
  project: ['src/**/*.{ts,tsx,css}', 'scripts/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
  // A small source tree the dependency-walls test checks by path, not part of the app.
  ignore: ['scripts/fixtures/**'],
  // late-plugin-views.test.ts drives the plugin of @tiptap/react's BubbleMenu, in the version @tiptap/react brings.
  ignoreDependencies: [
    '@tiptap/extension-bubble-menu',
    // compile/pdf.ts embeds its font files, resolved by path (require.resolve) in the worker.
    '@fontsource/literata',
  ],
  // faults.test.ts mounts a small tmpfs to fill a disk (skipped unless run as root).
  ignoreBinaries: ['mount', 'umount'],
  compilers: {
    // Stylesheets pull packages in with @import and url(): read those as imports.
    css: (text: string) =>
      [...text.matchAll(/@import\s+['"]([^'"]+)['"]|url\(\s*['"]?(@?[a-z][^'")]*)['"]?\s*\)/g)]
        .map((match) => match[1] ?? match[2])
        .filter((specifier) => specifier && !specifier.startsWith('data:'))
        .map((specifier) => `import '${specifier}';`)
        .join('\n'),
  },
};

export default config;
