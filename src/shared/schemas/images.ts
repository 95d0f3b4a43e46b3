import { z } from 'zod';
import { IMAGE_MIME_TYPES } from '../constants';

/** `POST /api/documents/:id/images` (201): the stored image, and the address the document's node keeps. */
export const uploadedImageSchema = z.object({
  id: z.uuid(),
  src: z.string(),
  mime: z.enum(IMAGE_MIME_TYPES),
  width: z.number().int(),
  height: z.number().int(),
  bytes: z.number().int(),
});
export type UploadedImage = z.infer<typeof uploadedImageSchema>;

/**
 * `GET /api/documents/:id/image-access`: the token an <img> of this document adds to its address as the
 * query parameter `param`, valid until `expiresAt`.
 */
export const imageAccessSchema = z.object({
  token: z.string(),
  expiresAt: z.string(),
  param: z.string(),
});
export type ImageAccessGrant = z.infer<typeof imageAccessSchema>;
