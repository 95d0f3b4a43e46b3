import { randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isUuid } from '../../shared/uuid';

/**
 * Image files on disk: `DATA_DIR/images/<document id>/<image id>.<ext>`, one folder per document so that a
 * document deleted for good takes its folder with it. Names are built from ids the database made (uuids,
 * checked again here) and an extension from a fixed list, never from what a client sent.
 */
export class ImageFiles {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'images');
  }

  private folderOf(documentId: string): string {
    if (!isUuid(documentId)) throw new Error('Not a document id');
    return path.join(this.root, documentId);
  }

  pathOf(documentId: string, imageId: string, extension: string): string {
    if (!isUuid(imageId) || !/^[a-z]{3,4}$/.test(extension)) throw new Error('Not an image file name');
    return path.join(this.folderOf(documentId), `${imageId}.${extension}`);
  }

  /** Written to a temporary name first, so a reader never sees half a file. */
  async write(documentId: string, imageId: string, extension: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(documentId, imageId, extension);
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${randomUUID()}.tmp`;
    try {
      await writeFile(temporary, bytes, { flag: 'wx' });
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /** The file as a stream with its size, or null when it is missing. */
  async open(
    documentId: string,
    imageId: string,
    extension: string,
  ): Promise<{ stream: ReadStream; size: number } | null> {
    const file = this.pathOf(documentId, imageId, extension);
    try {
      const { size } = await stat(file);
      return { stream: createReadStream(file), size };
    } catch {
      return null;
    }
  }

  async remove(documentId: string, imageId: string, extension: string): Promise<void> {
    await rm(this.pathOf(documentId, imageId, extension), { force: true });
  }

  /** Every image of the document (deleted for good). */
  async removeDocument(documentId: string): Promise<void> {
    await rm(this.folderOf(documentId), { recursive: true, force: true });
  }
}
