import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isUuid } from '../../shared/uuid';
import type { StoredImage } from './storage';

/**
 * Images in a backup archive: `images/<document id>/<image id>.<ext>`, the layout of both stores. A name that is
 * anything else (a path climbing out, a stray file) is never written on restore.
 */
const ENTRY = /^images\/([0-9a-f-]{36})\/([0-9a-f-]{36})\.([a-z]{3,4})$/;

export function imageOfEntry(name: string): StoredImage | null {
  const match = ENTRY.exec(name);
  if (!match || !isUuid(match[1]!) || !isUuid(match[2]!)) return null;
  return { documentId: match[1]!, imageId: match[2]!, extension: match[3]! };
}

/** Every image file under DATA_DIR/images, as its archive name and its path on disk. */
export async function imagesOnDisk(dataDir: string): Promise<{ name: string; file: string }[]> {
  const root = path.join(dataDir, 'images');
  const found: { name: string; file: string }[] = [];
  let folders: string[];
  try {
    folders = await readdir(root);
  } catch {
    return found;
  }
  for (const folder of folders.sort()) {
    let names: string[];
    try {
      names = await readdir(path.join(root, folder));
    } catch {
      continue;
    }
    for (const name of names.sort()) {
      // Only finished files: a half-written upload's temporary name does not match.
      const entry = `images/${folder}/${name}`;
      if (imageOfEntry(entry)) found.push({ name: entry, file: path.join(root, folder, name) });
    }
  }
  return found;
}
