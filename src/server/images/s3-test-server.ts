import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

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
