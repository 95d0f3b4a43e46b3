import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { AppError } from '../errors';
import { IMAGE_MIME_TYPES, MAX_IMAGE_DIMENSION_PX, MAX_IMAGE_INPUT_PIXELS } from '../../shared/constants';

export type ImageMime = (typeof IMAGE_MIME_TYPES)[number];

/** The file extension each stored type gets. */
export const IMAGE_EXTENSIONS: Readonly<Record<ImageMime, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

export interface ProcessedImage {
  bytes: Buffer;
  mime: ImageMime;
  width: number;
  height: number;
}

const unsupported = () =>
  new AppError(
    415,
    'unsupported_image',
    'This file is not an image Quillwright can show. Upload a PNG, JPEG, WebP, GIF or AVIF image (SVG is not accepted).',
  );

function isImageMime(value: string): value is ImageMime {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(value);
}

/**
 * An upload as it will be stored: its type read from its content (the name and the declared type are
 * ignored, so an HTML page named .png or an SVG with a script is refused), then decoded and encoded again
 * by sharp. Re-encoding is what makes it safe to serve: only pixels survive, every metadata block (EXIF with
 * GPS position, XMP, comments, ICC) is dropped, a photo is turned upright by its EXIF orientation first, and
 * anything larger than MAX_IMAGE_DIMENSION_PX on its long side is scaled down. Animated GIF and WebP keep
 * their frames. A file that claims an image type but does not decode is refused like any other.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  const sniffed = await fileTypeFromBuffer(input);
  if (!sniffed || !isImageMime(sniffed.mime)) throw unsupported();
  const mime = sniffed.mime;
  const animated = mime === 'image/gif' || mime === 'image/webp';
  try {
    let pipeline = sharp(input, {
      animated,
      limitInputPixels: MAX_IMAGE_INPUT_PIXELS,
      failOn: 'error',
    });
    // EXIF orientation exists only in still formats; an animation has none to apply.
    if (!animated) pipeline = pipeline.rotate();
    pipeline = pipeline.resize({
      width: MAX_IMAGE_DIMENSION_PX,
      height: MAX_IMAGE_DIMENSION_PX,
      fit: 'inside',
      withoutEnlargement: true,
    });
    switch (mime) {
      case 'image/png':
        pipeline = pipeline.png({ compressionLevel: 9 });
        break;
      case 'image/jpeg':
        pipeline = pipeline.jpeg({ quality: 85, mozjpeg: true });
        break;
      case 'image/webp':
        pipeline = pipeline.webp({ quality: 85 });
        break;
      case 'image/gif':
        pipeline = pipeline.gif();
        break;
      case 'image/avif':
        // A low effort: AVIF encoding is slow, and the server has few cores.
        pipeline = pipeline.avif({ quality: 60, effort: 2 });
        break;
    }
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    // For an animation, info.height is every frame stacked; one frame's is pageHeight.
    const height = (info as { pageHeight?: number }).pageHeight ?? info.height;
    return { bytes: data, mime, width: info.width, height };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unsupported();
  }
}
