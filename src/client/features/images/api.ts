import { IMAGE_MIME_TYPES, MAX_IMAGE_UPLOAD_BYTES } from '@shared/constants';
import type { ImageAccessGrant, UploadedImage } from '@shared/schemas/images';
import { apiRequest, toApiError } from '@client/lib/api';

/** How the page asks for its images: as the signed-in user, or as a share-link visitor with their token. */
export type ImageAuth = { kind: 'session' } | { kind: 'share'; token: () => string | undefined };

export const ACCEPTED_IMAGE_TYPES = IMAGE_MIME_TYPES.join(',');

/** Whether a file looks like an image we take (the server decides by its content). */
export function isImageFile(file: File): boolean {
  return (IMAGE_MIME_TYPES as readonly string[]).includes(file.type);
}

/** Refusals the browser can tell before sending (the server checks the same, and more). */
export function uploadProblem(file: File): string | null {
  if (!isImageFile(file)) {
    return 'This file is not an image Quillwright can show. Upload a PNG, JPEG, WebP, GIF or AVIF image (SVG is not accepted).';
  }
  if (file.size > MAX_IMAGE_UPLOAD_BYTES) {
    return `This image is larger than ${MAX_IMAGE_UPLOAD_BYTES / (1024 * 1024)} MB. Make it smaller and upload it again.`;
  }
  return null;
}

export async function uploadImage(documentId: string, file: File, auth: ImageAuth): Promise<UploadedImage> {
  const form = new FormData();
  form.append('file', file, file.name || 'image');
  const path = `/api/documents/${documentId}/images`;
  if (auth.kind === 'session') return apiRequest<UploadedImage>('POST', path, form);
  const response = await fetch(path, { method: 'POST', body: form, headers: shareHeaders(auth) });
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as UploadedImage;
}

function shareHeaders(auth: Extract<ImageAuth, { kind: 'share' }>): Record<string, string> {
  const token = auth.token();
  return token ? { 'X-Share-Token': token } : {};
}

export async function fetchImageAccess(documentId: string, auth: ImageAuth): Promise<ImageAccessGrant> {
  const path = `/api/documents/${documentId}/image-access`;
  if (auth.kind === 'session') return apiRequest<ImageAccessGrant>('GET', path);
  const response = await fetch(path, { headers: { Accept: 'application/json', ...shareHeaders(auth) } });
  if (!response.ok) throw await toApiError(response);
  return (await response.json()) as ImageAccessGrant;
}
