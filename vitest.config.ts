import { globSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = {
  '@shared': path.resolve('src/shared'),
  '@client': path.resolve('src/client'),
};
const serverTests = ['src/server/**/*.test.ts'];
/**
 * Server tests that start no server and open no database (they import none of the harnesses that do): running
 * them again on PostgreSQL would test nothing new, so the PostgreSQL project leaves them out.
 */
const DATABASE_HARNESS =
  /from '[^']*(test\/server|test\/database|test\/factories|fake-openai-server|child-server|fault-harness)'/;
const databaseFreeServerTests = globSync('src/server/**/*.test.ts').filter(
  (file) => !DATABASE_HARNESS.test(readFileSync(file, 'utf8')),
);
/**
 * Server test files share one process per worker (`isolate: false`): loading the app's modules once instead of
 * once per file halves the suite's CPU time. A file that replaces a module (`vi.mock`) would leak its stand-in
 * into the files after it, so those run in projects of their own, each file in a fresh process.
 */
const moduleMockingServerTests = globSync('src/server/**/*.test.ts').filter((file) =>
  /\bvi\.(do)?mock\(/.test(readFileSync(file, 'utf8')),
);

/** The server integration tests on one database: shared processes, then the module-mocking files isolated. */
function serverProjects(database: 'pglite' | 'postgres', exclude: string[]) {
  const common = {
    environment: 'node' as const,
    env: { QW_TEST_DB: database },
    globalSetup: ['src/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  };
  return [
    {
      resolve: { alias },
      test: {
        ...common,
        name: `server-${database}`,
        include: serverTests,
        exclude: [...exclude, ...moduleMockingServerTests],
        isolate: false,
      },
    },
    {
      resolve: { alias },
      test: {
        ...common,
        name: `server-${database}-isolated`,
        include: moduleMockingServerTests.filter((file) => !exclude.includes(file)),
      },
    },
  ];
}

/**
 * Projects: shared and client unit tests, and the server integration tests twice — on embedded PGlite,
 * and on PostgreSQL when TEST_DATABASE_URL is set (CI sets it; the suite then fails if the server is down).
 */
export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default leaves one core free; on a two-core machine that is one file at a time while the tests
    // spend much of it waiting on sockets and timers.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'shared',
          environment: 'node',
          include: ['src/shared/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/client/**/*.test.{ts,tsx}'],
        },
      },
      ...serverProjects('pglite', []),
      ...(process.env.TEST_DATABASE_URL ? serverProjects('postgres', databaseFreeServerTests) : []),
    ],
  },
});
