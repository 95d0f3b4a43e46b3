import { globSync, readFileSync } from 'node:fs';
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
 * Projects: shared and client unit tests, and the server integration tests twice — on embedded PGlite,
 * and on PostgreSQL when TEST_DATABASE_URL is set (CI sets it; the suite then fails if the server is down).
 */
export default defineConfig({
  resolve: { alias },
  test: {
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
      {
        resolve: { alias },
        test: {
          name: 'server-pglite',
          environment: 'node',
          include: serverTests,
          env: { QW_TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              resolve: { alias },
              test: {
                name: 'server-postgres',
                environment: 'node' as const,
                include: serverTests,
                exclude: databaseFreeServerTests,
                env: { QW_TEST_DB: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
