import { UUID_SOURCE } from '../uuid';

/**
 * The one form an image's `src` may take in a document: this server's address of an uploaded image,
 * `/api/documents/<document id>/images/<image id>`, relative, without query or fragment. The validator,
 * both sanitizers and the exports rely on it, so no document can point an <img> elsewhere (tracking
 * pixels, `javascript:`, data URLs). The access token an <img> needs is added when it is shown, never stored.
 */

export const IMAGE_SRC_PATTERN = new RegExp(`^/api/documents/(${UUID_SOURCE})/images/(${UUID_SOURCE})$`);

export function imageSrc(documentId: string, imageId: string): string {
  return `/api/documents/${documentId}/images/${imageId}`;
}

export function isImageSrc(value: unknown): value is string {
  return typeof value === 'string' && IMAGE_SRC_PATTERN.test(value);
}

/** The document and image an image address names, or null when it is not one. */
export function parseImageSrc(value: string): { documentId: string; imageId: string } | null {
  const match = IMAGE_SRC_PATTERN.exec(value);
  return match ? { documentId: match[1]!, imageId: match[2]! } : null;
}
