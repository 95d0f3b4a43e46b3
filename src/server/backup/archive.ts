import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { Unzip, UnzipInflate, UnzipPassThrough, Zip, ZipPassThrough, type UnzipFile } from 'fflate';
import { dumpEmbedded, holdsEmbedded, loadEmbedded } from '../db/backup';
import { lockDataDir } from '../db/data-dir-lock';
import { imageOfEntry, imagesOnDisk, type ImageStore } from '../images';

/**
 * A backup of an instance on the embedded database: one zip archive holding the database (PGlite's own dump,
 * `database.tar.gz`) and every image under DATA_DIR/images as `images/<document>/<image>.<ext>`, stored as
 * they are (both are compressed already). Images in an S3 bucket are not copied: the bucket is backed up by
 * the object store's own means (docs/images.md). Taken and restored while no server uses DATA_DIR (the
 * data-dir lock). An archive from before images were included (PGlite's gzip alone) still restores.
 */

const DATABASE_ENTRY = 'database.tar.gz';
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const GZIP_MAGIC = [0x1f, 0x8b];

export interface BackupResult {
  bytes: number;
  /** Images copied into the archive (0 when they live in a bucket). */
  images: number;
}

export async function backupInstance(
  dataDir: string,
  outFile: string,
  { includeImages }: { includeImages: boolean },
): Promise<BackupResult> {
  const release = lockDataDir(dataDir);
  // Written under a temporary name and renamed when whole, so a failed backup leaves no archive that looks good.
  const partial = `${outFile}.partial`;
  try {
    const database = await dumpEmbedded(dataDir);
    const images = includeImages ? await imagesOnDisk(dataDir) : [];
    mkdirSync(path.dirname(path.resolve(outFile)), { recursive: true });
    const out = createWriteStream(partial);
    let zipError: Error | null = null;
    const zip = new Zip((error, chunk, final) => {
      if (error) zipError = error;
      else out.write(chunk);
      if (final || error) out.end();
    });
    const add = async (name: string, bytes: Uint8Array) => {
      const entry = new ZipPassThrough(name);
      zip.add(entry);
      entry.push(bytes, true);
      if (out.writableNeedDrain) await once(out, 'drain');
    };
    await add(DATABASE_ENTRY, database);
    for (const image of images) await add(image.name, await readFile(image.file));
    zip.end();
    await finished(out);
    if (zipError) throw zipError;
    await rename(partial, outFile);
    return { bytes: out.bytesWritten, images: images.length };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    release();
  }
}

async function startsWith(file: string, magic: number[]): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(magic.length);
    await handle.read(head, 0, magic.length, 0);
    return magic.every((byte, index) => head[index] === byte);
  } finally {
    await handle.close();
  }
}

export interface RestoreOptions {
  /** Replace what DATA_DIR holds (its database, and its images when they live on disk). */
  force?: boolean;
  /** Where the archive's images go: DATA_DIR/images, or the bucket when the instance now uses one. */
  store: ImageStore;
  /** Whether `store` is DATA_DIR/images (then it must be empty unless `force`). */
  imagesOnDisk: boolean;
}

export interface RestoreResult {
  images: number;
  /** Entries that are not this archive's names (never written anywhere). */
  skipped: string[];
}

/** Reads the archive's files one at a time and hands each whole file to `onFile`, awaiting it. */
async function readZip(
  archiveFile: string,
  wanted: (name: string) => boolean,
  onFile: (name: string, bytes: Uint8Array) => Promise<void>,
): Promise<string[]> {
  const skipped: string[] = [];
  const pending: Promise<void>[] = [];
  let failure: unknown = null;
  const unzip = new Unzip((file: UnzipFile) => {
    if (!wanted(file.name)) {
      skipped.push(file.name);
      return;
    }
    const chunks: Uint8Array[] = [];
    file.ondata = (error, chunk, final) => {
      if (error) {
        failure ??= error;
        return;
      }
      chunks.push(chunk);
      if (final) pending.push(onFile(file.name, Buffer.concat(chunks)));
    };
    file.start();
  });
  unzip.register(UnzipPassThrough);
  unzip.register(UnzipInflate);
  for await (const chunk of createReadStream(archiveFile)) {
    unzip.push(chunk as Buffer);
    // One chunk's files written before the next is read: memory holds a few images at most.
    await Promise.all(pending.splice(0));
    if (failure) throw failure;
  }
  unzip.push(new Uint8Array(0), true);
  await Promise.all(pending.splice(0));
  if (failure) throw failure;
  return skipped;
}

export async function restoreInstance(
  archiveFile: string,
  dataDir: string,
  { force = false, store, imagesOnDisk: onDisk }: RestoreOptions,
): Promise<RestoreResult> {
  const isZip = await startsWith(archiveFile, ZIP_MAGIC);
  if (!isZip && !(await startsWith(archiveFile, GZIP_MAGIC))) {
    throw new Error(`${archiveFile} is not a Quillwright backup.`);
  }
  if (!force && holdsEmbedded(dataDir)) {
    throw new Error(
      `${path.join(dataDir, 'pglite')} already holds a database. Restore into an empty DATA_DIR, or pass --force to replace it.`,
    );
  }
  if (!force && onDisk && (await imagesOnDisk(dataDir)).length > 0) {
    throw new Error(
      `${path.join(dataDir, 'images')} already holds images. Restore into an empty DATA_DIR, or pass --force to replace them.`,
    );
  }
  const release = lockDataDir(dataDir);
  try {
    if (!isZip) {
      await loadEmbedded(await readFile(archiveFile), dataDir);
      return { images: 0, skipped: [] };
    }
    if (force && onDisk) rmSync(path.join(dataDir, 'images'), { recursive: true, force: true });
    let database: Uint8Array | null = null;
    let images = 0;
    const skipped = await readZip(
      archiveFile,
      (name) => name === DATABASE_ENTRY || imageOfEntry(name) !== null,
      async (name, bytes) => {
        if (name === DATABASE_ENTRY) {
          database = bytes;
          return;
        }
        const image = imageOfEntry(name)!;
        await store.write(image.documentId, image.imageId, image.extension, Buffer.from(bytes));
        images += 1;
      },
    );
    if (!database) throw new Error(`${archiveFile} holds no database.`);
    await loadEmbedded(database, dataDir);
    return { images, skipped };
  } finally {
    release();
  }
}
