import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { startTestS3, type TestS3 } from './testing';
import { DiskImageStore, S3ImageStore, s3SettingsOf, type ImageStore } from './storage';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

const temporaryDirs: string[] = [];
afterAll(() => temporaryDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const HOSTILE_NAMES: [string, string, string][] = [
  ['../../etc', randomUUID(), 'png'],
  [randomUUID(), '../../../etc/passwd', 'png'],
  [randomUUID(), randomUUID(), 'png/../../x'],
  [randomUUID(), randomUUID(), '../png'],
  [`${randomUUID()}/..`, randomUUID(), 'png'],
  ['..%2F..%2Fetc', randomUUID(), 'png'],
  [randomUUID(), `${randomUUID()}\0`, 'png'],
  ['', randomUUID(), 'png'],
];

interface Backend {
  name: string;
  start(): Promise<{ store: ImageStore; /** Every file the backend holds, relative. */ files(): string[] }>;
  stop(): Promise<void>;
}

function walk(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? walk(path.join(dir, entry.name), base)
      : [path.relative(base, path.join(dir, entry.name))],
  );
}

let s3: TestS3 | undefined;
const backends: Backend[] = [
  {
    name: 'local disk',
    async start() {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'qw-images-'));
      temporaryDirs.push(dataDir);
      return { store: new DiskImageStore(dataDir), files: () => walk(dataDir) };
    },
    async stop() {},
  },
  {
    name: 'S3-compatible (s3rver)',
    async start() {
      s3 = await startTestS3();
      const config = loadConfig({
        JWT_SECRET: 'x'.repeat(40),
        DATA_DIR: s3.directory,
        ...s3.env,
        S3_PREFIX: 'studio/',
      });
      const store = new S3ImageStore(s3SettingsOf(config)!);
      const directory = s3.directory;
      return { store, files: () => walk(directory).filter((file) => file.endsWith('._S3rver_object')) };
    },
    async stop() {
      await s3?.close();
    },
  },
];

describe.each(backends)('image storage: $name', (backend) => {
  let store: ImageStore;
  let files: () => string[];
  beforeAll(async () => {
    ({ store, files } = await backend.start());
  });
  afterAll(async () => {
    await store?.close();
    await backend.stop();
  });

  it('gives back what was written, byte for byte, streamed with its size', async () => {
    const documentId = randomUUID();
    const imageId = randomUUID();
    // Larger than one stream chunk, so the read really is a stream of several.
    const bytes = randomBytes(700 * 1024);
    await store.write(documentId, imageId, 'png', bytes);
    const opened = await store.open(documentId, imageId, 'png');
    expect(opened?.size).toBe(bytes.length);
    expect((await bytesOf(opened!.stream)).equals(bytes)).toBe(true);
    expect(await store.list(documentId)).toEqual([{ documentId, imageId, extension: 'png' }]);
  });

  it('answers null for a missing image and an empty list for a document without images', async () => {
    expect(await store.open(randomUUID(), randomUUID(), 'png')).toBeNull();
    expect(await store.list(randomUUID())).toEqual([]);
  });

  it('deletes one image, then a whole document, leaving other documents alone', async () => {
    const [first, second] = [randomUUID(), randomUUID()];
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await store.write(first, ids[0]!, 'png', Buffer.from('one'));
    await store.write(first, ids[1]!, 'jpg', Buffer.from('two'));
    await store.write(second, ids[2]!, 'webp', Buffer.from('three'));

    await store.remove(first, ids[0]!, 'png');
    expect(await store.open(first, ids[0]!, 'png')).toBeNull();
    // Removing what is already gone is not an error.
    await store.remove(first, ids[0]!, 'png');
    expect(await store.list(first)).toEqual([{ documentId: first, imageId: ids[1], extension: 'jpg' }]);

    await store.removeDocument(first);
    expect(await store.list(first)).toEqual([]);
    expect(await store.open(first, ids[1]!, 'jpg')).toBeNull();
    const kept = await store.open(second, ids[2]!, 'webp');
    expect((await bytesOf(kept!.stream)).toString()).toBe('three');
  });

  it('refuses names that are not ids and a known extension, so nothing lands outside its folder', async () => {
    const before = files();
    for (const [documentId, imageId, extension] of HOSTILE_NAMES) {
      await expect(store.write(documentId, imageId, extension, Buffer.from('x'))).rejects.toThrow(
        /Not an? (document id|image file name)/,
      );
      await expect(store.open(documentId, imageId, extension)).rejects.toThrow();
      await expect(store.remove(documentId, imageId, extension)).rejects.toThrow();
    }
    for (const documentId of ['..', '../..', '', '.', 'images']) {
      await expect(store.removeDocument(documentId)).rejects.toThrow(/Not a document id/);
      await expect(store.list(documentId)).rejects.toThrow(/Not a document id/);
    }
    expect(files()).toEqual(before);
  });

  it('lays images out as images/<document>/<image>.<ext>', async () => {
    const documentId = randomUUID();
    const imageId = randomUUID();
    await store.write(documentId, imageId, 'gif', Buffer.from('GIF89a'));
    const name = `images/${documentId}/${imageId}.gif`;
    const expected = backend.name === 'local disk' ? name : `quillwright-test/studio/${name}._S3rver_object`;
    expect(files()).toContain(expected);
  });
});

describe('S3 settings', () => {
  const base = { JWT_SECRET: 'x'.repeat(40), DATA_DIR: path.join(tmpdir(), 'qw-s3-config') };
  const load = (env: Record<string, string>) => () => loadConfig({ ...base, ...env });

  it('are off without S3_BUCKET, and default to us-east-1 and virtual-host addresses', () => {
    expect(s3SettingsOf(loadConfig(base))).toBeNull();
    expect(s3SettingsOf(loadConfig({ ...base, S3_BUCKET: 'my-images' }))).toEqual({
      bucket: 'my-images',
      region: 'us-east-1',
      endpoint: undefined,
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
      prefix: '',
    });
  });

  it('stop the server with a message naming the variable, never a secret', () => {
    const secret = 'wJalrXUtnFEMI-secret-value';
    const cases: [Record<string, string>, RegExp][] = [
      [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /S3_ENDPOINT: is set but S3_BUCKET is not/],
      [{ S3_BUCKET: 'Bad_Bucket' }, /S3_BUCKET: must be a bucket name/],
      [
        { S3_BUCKET: 'images', S3_SECRET_ACCESS_KEY: secret },
        /S3_ACCESS_KEY_ID: is needed with the other S3 key/,
      ],
      [{ S3_BUCKET: 'images', S3_ACCESS_KEY_ID: secret }, /S3_SECRET_ACCESS_KEY: is needed with the other/],
      [{ S3_BUCKET: 'images', S3_ENDPOINT: 'not a url' }, /S3_ENDPOINT/],
      [{ S3_BUCKET: 'images', S3_PREFIX: '../x/' }, /S3_PREFIX: must/],
      [{ S3_BUCKET: 'images', S3_PREFIX: 'no-slash' }, /S3_PREFIX: must be folder names ending with "\/"/],
      [{ S3_BUCKET: 'images', S3_FORCE_PATH_STYLE: 'maybe' }, /S3_FORCE_PATH_STYLE/],
    ];
    for (const [env, message] of cases) {
      let error: unknown;
      try {
        load(env)();
      } catch (caught) {
        error = caught;
      }
      expect(error, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain(secret);
    }
  });
});
