import path from 'node:path';
import { backupInstance, restoreInstance } from '../src/server/backup';
import { loadConfig } from '../src/server/config';
import { createImageStore } from '../src/server/images';

/**
 * npm run backup -- [archive.zip]         the embedded database and DATA_DIR/images (stop the server first)
 * npm run restore -- <archive> [--force]  restore it into DATA_DIR (empty, or --force to replace)
 */
async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const config = loadConfig();
  if (config.DATABASE_URL) {
    console.error(
      'DATABASE_URL is set: back up PostgreSQL with its own tools, e.g.\n' +
        '  pg_dump --format=custom --file=quillwright.dump "$DATABASE_URL"\n' +
        '  pg_restore --clean --if-exists --dbname="$DATABASE_URL" quillwright.dump\n' +
        (config.S3_BUCKET
          ? `and the images in the S3 bucket ${config.S3_BUCKET} with the object store's own means.`
          : `and copy the images folder ${path.join(config.DATA_DIR, 'images')} with it.`),
    );
    process.exit(2);
  }
  const force = rest.includes('--force');
  const file = rest.find((arg) => !arg.startsWith('--'));
  const inBucket = Boolean(config.S3_BUCKET);
  if (command === 'backup') {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
    const out = path.resolve(file ?? `backups/quillwright-${stamp}.zip`);
    const { bytes, images } = await backupInstance(config.DATA_DIR, out, { includeImages: !inBucket });
    console.log(
      `Backed up ${config.DATA_DIR} to ${out} (${bytes} bytes, ` +
        (inBucket
          ? `the database only: the images are in the S3 bucket ${config.S3_BUCKET}; back it up with the object store's own means).`
          : `${images} images).`),
    );
  } else if (command === 'restore') {
    if (!file) throw new Error('Usage: npm run restore -- <archive.zip> [--force]');
    const store = createImageStore(config);
    try {
      const { images, skipped } = await restoreInstance(path.resolve(file), config.DATA_DIR, {
        force,
        store,
        imagesOnDisk: !inBucket,
      });
      const where = inBucket ? `the S3 bucket ${config.S3_BUCKET}` : 'DATA_DIR/images';
      console.log(
        `Restored ${file} into ${config.DATA_DIR} (${images} images into ${where}). Start the server with npm start.`,
      );
      if (skipped.length > 0)
        console.warn(`Left out ${skipped.length} entries that are not part of a backup.`);
    } finally {
      await store.close();
    }
  } else {
    throw new Error('Usage: backup.ts backup [file] | restore <file> [--force]');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
