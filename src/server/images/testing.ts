import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
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

export interface TestS3 {
  /** Environment variables that point a server at the emulator's bucket. */
  env: Record<string, string>;
  /** The emulator's files: `<bucket>/<key>._S3rver_object` for every object. */
  directory: string;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server for tests (s3rver, speaking the S3 REST protocol) on a free loopback port, with
 * its own temporary directory and an empty bucket.
 */
export async function startTestS3(bucket = 'quillwright-test'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'qw-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: 'us-east-1',
      // s3rver's fixed credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    directory,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
