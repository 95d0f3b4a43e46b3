import sharp from 'sharp';
import { documentImages } from '../db/schema';
import type { TestServer } from '../test/server';

/** A small red PNG, made once per call (tests keep the bytes). */
export function testPng(width = 8, height = 8): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();
}

/** An image stored in the document as an upload would leave it (file and row), without the upload's cost. */
export async function seedImage(
  server: TestServer,
  documentId: string,
  uploadedBy: string,
  png: Buffer,
): Promise<string> {
  const [row] = await server.database.db
    .insert(documentImages)
    .values({ documentId, uploadedBy, bytes: png.length, mime: 'image/png', width: 8, height: 8 })
    .returning({ id: documentImages.id });
  await server.app.imageStore.write(documentId, row!.id, 'png', png);
  return row!.id;
}

/** A multipart body with one `file` part holding `bytes`. */
export function multipartFile(
  bytes: Uint8Array,
  { boundary = 'image-upload-boundary', name = 'picture.png', type = 'image/png' } = {},
): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: new Uint8Array(Buffer.concat([head, bytes, tail])),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
