import { randomBytes } from 'node:crypto';
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
  drop(): Promise<void>;
}

/** A fresh, empty database for one test server: its own PostgreSQL database, dropped afterwards. */
export async function createTestDatabase(): Promise<TestDatabaseHandle> {
  if (testDatabaseKind() === 'pglite') return { databaseUrl: undefined, drop: async () => {} };
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl)
    throw new Error(
      'QW_TEST_DB=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)',
    );
  const name = `qw_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
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
