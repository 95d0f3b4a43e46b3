// Compiles the server, its grammar worker and the command-line scripts to plain JavaScript in dist/server, so
// `npm start` runs on Node alone (no TypeScript loader, no esbuild service beside the server).
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
  admin: 'scripts/admin.ts',
  backup: 'scripts/backup.ts',
};

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
    // node_modules stay where npm put them: loaded by Node at run time, not copied into the bundle.
    packages: 'external',
    sourcemap: 'linked',
    // Names stay readable in stack traces and logs.
    minify: false,
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
