import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import path from 'node:path';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock';
import { runMigrations, type SqlRunner } from './migrate';
import * as schema from './schema';

/** Both drivers expose the same query builder; we type everything against the node-postgres flavour. */
export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Runs raw SQL (used by migrations and health checks). */
  exec: SqlRunner;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL only: the connection pool's state now (the server's metrics read it). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * Embedded database only: calls `onChange` after every committed write that can take access to a document
   * away (a session revoked or deleted, a document deleted or given another owner; migration
   * 0006_access_notify). The embedded database has exactly one process (the data-directory lock), so this
   * sees every such write. Resolves once listening; the returned function stops it.
   */
  watchAccessChanges?(onChange: () => void): Promise<() => Promise<void>>;
}

/** The channel of migration 0006_access_notify. */
const ACCESS_CHANGED_CHANNEL = 'qw_access_changed';

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** Directory for embedded data; `memory://` keeps PGlite in memory (tests). */
  dataDir: string;
  /** Skip the data-directory lock (in-memory databases have nothing to lock). */
  lock?: boolean;
  /** Embedded only: start from this dumped data directory (tests copy one migrated template). */
  initialData?: Blob | undefined;
}

/**
 * PostgreSQL's default 128 MB buffer cache lives inside PGlite's WebAssembly memory and, once touched, stays in
 * the server's resident memory. A writing app's working set (documents, sessions) fits in far less: at 16 MB
 * an idle server holds about 120 MB less (measurements in docs/performance-history.md).
 */
const EMBEDDED_SHARED_BUFFERS = '16MB';

/** bytea in Postgres's hex text format (`\\x0a1b…`), the format PGlite exchanges parameters and results in. */
function serializeBytea(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
  return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
}

function parseBytea(text: string): Uint8Array {
  // A copy, so the result is a plain Uint8Array that does not pin Buffer's shared pool.
  return new Uint8Array(Buffer.from(text.slice(2), 'hex'));
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it. Queries report their own errors.
    });
    const exec: SqlRunner = async (sqlText, params) => (await pool.query(sqlText, params as unknown[])).rows;
    // Migrations hold a session-level advisory lock, so they need one connection throughout.
    const migrationClient = await pool.connect();
    try {
      await runMigrations(
        async (sqlText, params) => (await migrationClient.query(sqlText, params as unknown[])).rows,
      );
    } finally {
      migrationClient.release();
    }
    return {
      db: drizzlePg(pool, { schema }),
      kind: 'postgres',
      exec,
      ping: async () => void (await pool.query('select 1')),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: () => pool.end(),
    };
  }

  const inMemory = options.dataDir === 'memory://';
  const release = inMemory || options.lock === false ? () => {} : lockDataDir(options.dataDir);
  try {
    const client = await PGlite.create(inMemory ? 'memory://' : path.join(options.dataDir, 'pglite'), {
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
      ...(options.initialData && { loadDataDir: options.initialData }),
      // PGlite's own bytea codec goes through one string per byte: storing a 20 KB Yjs state took ~5 ms of
      // main-thread time and 20,000 short-lived strings (docs/collaboration.md). Same text format, natively.
      serializers: { [pgliteTypes.BYTEA]: serializeBytea },
      parsers: { [pgliteTypes.BYTEA]: parseBytea },
    });
    const exec: SqlRunner = async (sqlText, params) => {
      if (params && params.length > 0) return (await client.query(sqlText, params as unknown[])).rows;
      const results = await client.exec(sqlText);
      return results.at(-1)?.rows ?? [];
    };
    await runMigrations(exec);
    return {
      db: drizzlePglite(client, { schema }) as unknown as Db,
      kind: 'pglite',
      exec,
      ping: async () => void (await client.query('select 1')),
      watchAccessChanges: (onChange) => client.listen(ACCESS_CHANGED_CHANNEL, () => onChange()),
      close: async () => {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
