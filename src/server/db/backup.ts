import { PGlite } from '@electric-sql/pglite';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lockDataDir } from './data-dir-lock';

/**
 * Backups of the embedded database: a compressed archive of PGlite's data directory, taken while no
 * server uses it (the data-dir lock guarantees that). PostgreSQL deployments use pg_dump instead
 * (docs/reliability.md).
 */
const PGLITE_SUBDIR = 'pglite';

export async function backupEmbedded(dataDir: string, outFile: string): Promise<{ bytes: number }> {
  const pgliteDir = path.join(dataDir, PGLITE_SUBDIR);
  if (!existsSync(pgliteDir)) throw new Error(`No embedded database in ${dataDir} (expected ${pgliteDir})`);
  const release = lockDataDir(dataDir);
  try {
    const db = await PGlite.create(pgliteDir);
    try {
      // A checkpoint first, so the archive holds every committed transaction in the data files.
      await db.exec('checkpoint');
      const archive = await db.dumpDataDir('gzip');
      const bytes = new Uint8Array(await archive.arrayBuffer());
      mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
      writeFileSync(outFile, bytes);
      return { bytes: bytes.byteLength };
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}

export async function restoreEmbedded(
  archiveFile: string,
  dataDir: string,
  { force = false }: { force?: boolean } = {},
): Promise<void> {
  const pgliteDir = path.join(dataDir, PGLITE_SUBDIR);
  if (existsSync(pgliteDir) && readdirSync(pgliteDir).length > 0 && !force) {
    throw new Error(
      `${pgliteDir} already holds a database. Restore into an empty DATA_DIR, or pass --force to replace it.`,
    );
  }
  const release = lockDataDir(dataDir);
  try {
    if (force && existsSync(pgliteDir)) {
      const { rmSync } = await import('node:fs');
      rmSync(pgliteDir, { recursive: true, force: true });
    }
    const archive = new Blob([readFileSync(archiveFile)]);
    const db = await PGlite.create(pgliteDir, { loadDataDir: archive });
    try {
      // Proves the archive is a readable database before we report success.
      await db.query('select count(*) from documents');
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}
