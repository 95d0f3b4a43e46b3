/**
 * Walls between features, checked by `npm run deps` (part of `npm run check`, see scripts/dependency-walls.ts).
 *
 * A feature is a folder `src/server/<feature>/` or `src/client/features/<area>/`. Everything outside it uses
 * only what it exports from its `index.ts`; inside a feature anything goes. The client app's composition root
 * may also take a client feature's entry modules (below). Feature folders (and the client's `lib` and
 * `components`) must not depend on each other in a loop. Violations present when a rule arrived are listed in
 * `.dependency-cruiser-known-violations.json`; that list may only shrink. See docs/architecture.md.
 */

/**
 * Server folders that are shared infrastructure rather than features: anything may import them, and they have
 * no `index.ts`.
 * - db: the connection, schema and migrations every feature reads and writes through;
 * - runtime: the process's logger, version, shutdown deadline and startup summary;
 * - test: the test server, test database and factories every feature's tests use;
 * - reliability: whole-server tests and their harness (no production code imports it).
 * The top-level modules `src/server/*.ts` (config, errors, validation, app, routes, main, dependencies, spa,
 * compressed responses) are infrastructure too: they sit in no feature folder, so they may be imported freely,
 * but they too reach a feature only through its index.ts.
 */
const SERVER_INFRASTRUCTURE = '^src/server/(db|runtime|test|reliability)/';

/**
 * Test code: test files, and the server's test-only folders. It may use another feature's test helpers
 * (below) as well as its index.ts. Loops between folders are judged on production code only: a test that
 * sets up its data through another feature does not tie the two features together.
 */
const TEST_CODE = '^(?:.*\\.test\\.tsx?$|src/server/(?:test|reliability)/)';

/** A feature's test helpers, for its own tests and other features' tests (never for production code). */
const TEST_HELPERS = '/(testing|test-helpers)\\.tsx?$|\\.testing\\.tsx?$';

const FEATURE_MODULE = ['^src/server/[^/]+/', '^src/client/features/[^/]+/'];
const PUBLIC_SURFACE = '^src/(server|client/features)/[^/]+/index\\.tsx?$';

/**
 * The importer's own folder, captured as $1: its feature folder, a client folder such as lib, or for a
 * top-level module the module itself (which owns no feature).
 */
const IMPORTER = '^(src/client/features/[^/]+|src/server/[^/]+|src/client/[^/]+)(?:/|$)';
const TEST_IMPORTER = `(?=${TEST_CODE})${IMPORTER}`;

/**
 * The client app's composition root: the top-level modules of src/client (main.tsx, app.tsx, routes.tsx,
 * editor-page.tsx), which mount the providers, match the routes and compose the editor's page.
 */
const COMPOSITION_ROOT = '^src/client/[^/]+\\.tsx?$';

/**
 * A client feature's entry modules, for the composition root beside its index.ts: its pages (`<Name>Page.tsx`),
 * each loaded by the router when its route is first shown, and `entry.ts`, what the app's shell runs before or
 * beside a page (the editor route's early requests, the theme). Code that loads on its own schedule cannot come
 * through an index: a dynamic import of an index brings all of it, and a static import of one from the first
 * chunk splits that chunk into more, smaller ones.
 */
const ENTRY_MODULE = '^src/client/features/[^/]+/(?:[A-Za-z]+Page\\.tsx|entry\\.ts)$';

const FEATURE_FOLDER = '^src/server/[^/]+$|^src/client/features/[^/]+$|^src/client/(lib|components)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-feature-internals',
      severity: 'error',
      comment:
        "Another feature's modules are reached only through its index.ts, its public surface. Export what you " +
        'need from there, or move the shared piece to infrastructure.',
      // scripts/dependency-walls.ts reads this pathNot as the test code it leaves out when it looks for loops.
      from: { path: `(?!${COMPOSITION_ROOT})${IMPORTER}`, pathNot: TEST_CODE },
      to: { path: FEATURE_MODULE, pathNot: ['^$1/', SERVER_INFRASTRUCTURE, PUBLIC_SURFACE] },
    },
    {
      name: 'no-feature-internals-in-app-root',
      severity: 'error',
      comment:
        "The app's composition root (the top-level modules of src/client) reaches a feature through its " +
        'index.ts, its pages (<Name>Page.tsx) and its entry.ts; nothing else of it.',
      from: { path: COMPOSITION_ROOT, pathNot: TEST_CODE },
      to: { path: FEATURE_MODULE, pathNot: [PUBLIC_SURFACE, ENTRY_MODULE] },
    },
    {
      name: 'no-feature-internals-in-tests',
      severity: 'error',
      comment:
        "Tests reach into their own feature's internals only; another feature through its index.ts or its test " +
        'helpers (testing.ts, test-helpers.ts).',
      from: { path: TEST_IMPORTER },
      to: { path: FEATURE_MODULE, pathNot: ['^$1/', SERVER_INFRASTRUCTURE, PUBLIC_SURFACE, TEST_HELPERS] },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      scope: 'folder',
      comment:
        'Features depend on each other one way only; a loop between folders means none of them can change or be ' +
        'understood alone. Move the shared piece to the folder both may use, or pass it in as a parameter.',
      from: { path: FEATURE_FOLDER },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^scripts/fixtures/' },
    // Type-only imports count: a feature's internal types are internals too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    skipAnalysisNotInRules: true,
    baseline: { mode: 'shrink-only', staleEntriesSeverity: 'error' },
  },
};
