import path from 'node:path';
import { loadConfig } from '../src/server/config';
import { backupEmbedded, restoreEmbedded } from '../src/server/db/backup';

/**
 * npm run backup -- [archive.tar.gz]      archive of the embedded database (stop the server first)
 * npm run restore -- <archive> [--force]  restore it into DATA_DIR (empty, or --force to replace)
 */
async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const config = loadConfig();
  if (config.DATABASE_URL) {
    console.error(
      'DATABASE_URL is set: back up PostgreSQL with its own tools, e.g.\n' +
        '  pg_dump --format=custom --file=quillwright.dump "$DATABASE_URL"\n' +
        '  pg_restore --clean --if-exists --dbname="$DATABASE_URL" quillwright.dump',
    );
    process.exit(2);
  }
  const force = rest.includes('--force');
  const file = rest.find((arg) => !arg.startsWith('--'));
  if (command === 'backup') {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
    const out = path.resolve(file ?? `backups/quillwright-${stamp}.tar.gz`);
    const { bytes } = await backupEmbedded(config.DATA_DIR, out);
    console.log(`Backed up ${config.DATA_DIR} to ${out} (${bytes} bytes).`);
  } else if (command === 'restore') {
    if (!file) throw new Error('Usage: npm run restore -- <archive.tar.gz> [--force]');
    await restoreEmbedded(path.resolve(file), config.DATA_DIR, { force });
    console.log(`Restored ${file} into ${config.DATA_DIR}. Start the server with npm start.`);
  } else {
    throw new Error('Usage: backup.ts backup [file] | restore <file> [--force]');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
