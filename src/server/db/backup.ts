import { PGlite } from '@electric-sql/pglite';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded database's part of a backup: a compressed archive of PGlite's data directory, taken while no
 * server uses it (the caller holds the data-dir lock). PostgreSQL deployments use pg_dump instead
 * (docs/reliability.md). The whole backup (database and images) is put together in src/server/backup.
 */
const PGLITE_SUBDIR = 'pglite';

export async function dumpEmbedded(dataDir: string): Promise<Uint8Array> {
  const pgliteDir = path.join(dataDir, PGLITE_SUBDIR);
  if (!existsSync(pgliteDir)) throw new Error(`No embedded database in ${dataDir} (expected ${pgliteDir})`);
  const db = await PGlite.create(pgliteDir);
  try {
    // A checkpoint first, so the archive holds every committed transaction in the data files.
    await db.exec('checkpoint');
    const archive = await db.dumpDataDir('gzip');
    return new Uint8Array(await archive.arrayBuffer());
  } finally {
    await db.close();
  }
}

/** Whether DATA_DIR already holds a database (a restore then needs --force). */
export function holdsEmbedded(dataDir: string): boolean {
  const pgliteDir = path.join(dataDir, PGLITE_SUBDIR);
  return existsSync(pgliteDir) && readdirSync(pgliteDir).length > 0;
}

/** Replaces DATA_DIR's database by the one in `archive` (the caller holds the data-dir lock). */
export async function loadEmbedded(archive: Uint8Array, dataDir: string): Promise<void> {
  const pgliteDir = path.join(dataDir, PGLITE_SUBDIR);
  rmSync(pgliteDir, { recursive: true, force: true });
  const db = await PGlite.create(pgliteDir, { loadDataDir: new Blob([new Uint8Array(archive)]) });
  try {
    // Proves the archive is a readable database before we report success.
    await db.query('select count(*) from documents');
  } finally {
    await db.close();
  }
}
