import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * Which database the server tests run on. The `server-postgres` Vitest project sets QW_TEST_DB=postgres and
 * needs TEST_DATABASE_URL; if that server is down the tests fail (they never skip).
 */
export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.QW_TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

export interface TestDatabaseHandle {
  /** Connection string for a fresh database, or undefined for in-memory PGlite. */
  databaseUrl: string | undefined;
  /** In-memory PGlite under Vitest: the run's migrated data directory to start from. */
  initialData?: Blob | undefined;
  drop(): Promise<void>;
}

/**
 * The run's migrated template (src/server/test/global-setup.ts), when the caller runs under Vitest; benchmarks
 * that start test servers outside it migrate a fresh database instead.
 */
async function migratedTemplate(): Promise<string | undefined> {
  if (!process.env.VITEST) return undefined;
  const { inject } = await import('vitest');
  return inject('migratedTemplate');
}

/** A fresh database with every migration applied for one test server: its own PostgreSQL database, dropped afterwards. */
export async function createTestDatabase(
  options: {
    /** False: an empty database, for a test whose server must create (and so own) the tables itself. */
    fromTemplate?: boolean;
  } = {},
): Promise<TestDatabaseHandle> {
  const template = options.fromTemplate === false ? undefined : await migratedTemplate();
  if (testDatabaseKind() === 'pglite') {
    const initialData = template ? new Blob([readFileSync(template)]) : undefined;
    return { databaseUrl: undefined, initialData, drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl)
    throw new Error(
      'QW_TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)',
    );
  const name = `qw_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    databaseUrl: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
