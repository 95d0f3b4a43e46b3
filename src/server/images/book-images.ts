import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { parseImageSrc } from '../../shared/editor/image-src';
import { openImage, type ImagesContext } from './service';
import { IMAGE_EXTENSIONS, type ImageMime } from './process';
import type { ImageStore } from './storage';
import type { ServerDependencies } from '../dependencies';

/** An image as a compiled book embeds it: its bytes in a type the book's format accepts. */
export interface ImageForBook {
  src: string;
  name: string;
  mime: 'image/png' | 'image/jpeg' | 'image/gif';
  width: number;
  height: number;
  bytes: Uint8Array;
}

/**
 * The images a book shows, read for a signed-in user through the same rule as every <img> (whoever may read
 * the image's document); an image they may not see, or whose file is gone, is left out (the book shows its
 * alt text). Also what the Word export embeds. Types the format cannot hold are converted to PNG (EPUB: WebP and AVIF; PDF: also GIF, first
 * frame).
 */
export async function imagesForBook(
  deps: Pick<ServerDependencies, 'config' | 'database' | 'db'>,
  store: ImageStore,
  userId: string,
  sources: readonly string[],
  accepts: readonly ImageForBook['mime'][],
): Promise<ImageForBook[]> {
  const ctx: ImagesContext = { ...deps, files: store };
  const out: ImageForBook[] = [];
  for (const src of sources) {
    const ids = parseImageSrc(src);
    if (!ids) continue;
    // Anything that goes wrong with one image (no access, file gone, bytes that no longer decode) leaves that
    // image out: the book or file shows its alt text instead of failing.
    try {
      const file = await openImage(ctx, { kind: 'user', userId, sessionId: '' }, ids.documentId, ids.imageId);
      let bytes: Buffer = await buffer(file.stream);
      let mime: ImageMime = file.mime;
      if (!(accepts as readonly string[]).includes(mime)) {
        bytes = await sharp(bytes).png().toBuffer();
        mime = 'image/png';
      }
      const { width = 0, height = 0 } = await sharp(bytes).metadata();
      const extension = IMAGE_EXTENSIONS[mime];
      out.push({
        src,
        name: `${ids.imageId}.${extension}`,
        mime: mime as ImageForBook['mime'],
        width,
        height,
        bytes: new Uint8Array(bytes),
      });
    } catch {
      continue;
    }
  }
  return out;
}
