// Compiles the server, its grammar worker and the command-line scripts to plain JavaScript in dist/server, so
// `npm start` runs on Node alone (no TypeScript loader, no esbuild service beside the server). The packages the
// server uses are bundled in too, whitespace-minified: every module's source stays in V8's heap for the life of
// the process, and one compact file per entry holds about 25 MiB less than thousands of files from node_modules
// (docs/performance-history.md, "Memory and start time").
// Run by Node directly (type stripping): erasable TypeScript only, and nothing imported but esbuild.
import { build, type Plugin } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const SERVER_OUT_DIR = path.resolve('dist/server');

/** Entry points, each bundled to dist/server/<name>.js. */
const ENTRY_POINTS = {
  main: 'src/server/main.ts',
  'grammar-worker': 'src/server/ai/grammar-worker.ts',
  'import-worker': 'src/server/imports/import-worker.ts',
  'compile-worker': 'src/server/compile/compile-worker.ts',
  admin: 'scripts/admin.ts',
  backup: 'scripts/backup.ts',
};

/** Packages loaded from node_modules at run time because they read their own files (see the build below). */
const RUNTIME_FILE_PACKAGES = [
  '@electric-sql/pglite', // its WebAssembly module and data files
  '@node-rs/argon2', // a native addon chosen per platform
  'harper.js', // its WebAssembly module
  'pdfmake', // pdfkit reads its font metrics (AFM files) beside its code
  'sentiment', // its word lists, required by a computed path
];

const BUNDLE_PRELUDE = [
  "import { createRequire as __bundleCreateRequire } from 'node:module';",
  "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
  'const require = __bundleCreateRequire(import.meta.url);',
  'const __filename = __bundleFileURLToPath(import.meta.url);',
  "const __dirname = __bundleFileURLToPath(new URL('.', import.meta.url));",
].join('\n');

const builtNameBySource = new Map(
  Object.entries(ENTRY_POINTS).map(([name, source]) => [path.resolve(source), `${name}.js`]),
);

/**
 * Bundling moves every module into one file in dist/server, so `import.meta.url` would point there. Source
 * files use it to find what sits beside them (SQL migrations, the common-password list, the grammar worker):
 * - `new URL('./x.ts', import.meta.url)` naming another entry point becomes its built file beside the bundle;
 * - any other `import.meta.url` becomes the URL of the source file, relative to the bundle, so the build
 *   reads those files from the checkout it was built from.
 */
const BUNDLE_URL = '__bundle_import_meta_url__';
const sourceRelativeImportMeta: Plugin = {
  name: 'source-relative-import-meta',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      let contents = await readFile(args.path, 'utf8');
      if (!contents.includes('import.meta.url')) return undefined;
      const sourceDir = path.dirname(args.path);
      contents = contents.replace(
        /new URL\((['"])(\.{1,2}\/[^'"]+\.ts)\1, import\.meta\.url\)/g,
        (whole, _quote: string, relative: string) => {
          const built = builtNameBySource.get(path.resolve(sourceDir, relative));
          return built ? `new URL(${JSON.stringify(`./${built}`)}, ${BUNDLE_URL})` : whole;
        },
      );
      const fromBundle = path.relative(SERVER_OUT_DIR, args.path).split(path.sep).join('/');
      contents = contents
        .replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`)
        .replaceAll(BUNDLE_URL, 'import.meta.url');
      return { contents, loader: 'ts' };
    });
  },
};

export async function buildServer(): Promise<void> {
  await rm(SERVER_OUT_DIR, { recursive: true, force: true });
  await build({
    entryPoints: ENTRY_POINTS,
    outdir: SERVER_OUT_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    // Packages that read files beside their own code at run time (WebAssembly, native addons, data files) stay
    // in node_modules and are loaded from there.
    external: RUNTIME_FILE_PACKAGES,
    // For stack traces that point at the TypeScript sources: NODE_OPTIONS=--enable-source-maps. Not on by
    // default: Node then keeps the parsed map of the whole bundle in memory (about 40 MiB).
    sourcemap: 'linked',
    sourcesContent: false,
    // Smaller source held in memory; names stay readable in stack traces and logs.
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    // Bundled CommonJS packages call require() for Node's built-ins and a few use __dirname/__filename.
    banner: { js: BUNDLE_PRELUDE },
    // Modules the server imports on first use (export converters) become their own files, loaded then.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    alias: { '@shared': path.resolve('src/shared') },
    plugins: [sourceRelativeImportMeta],
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  await buildServer();
  console.log(`Built the server into dist/server in ${Math.round(performance.now() - started)} ms.`);
}
