import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Config } from '../config';
import { isUuid } from '../../shared/uuid';

/**
 * Where image bytes live: on the server's disk under DATA_DIR (the default), or in an S3-compatible bucket
 * when S3_BUCKET is set. Both lay images out the same way, `images/<document id>/<image id>.<ext>`, one
 * folder (prefix) per document so that a document deleted for good takes its images with it. Names are built
 * from ids the database made (uuids, checked again here) and an extension from a fixed list, never from what
 * a client sent, so no name can climb out of its folder.
 */

export interface StoredImage {
  documentId: string;
  imageId: string;
  extension: string;
}

export interface ImageStore {
  /** Whole or not at all: a reader never sees half an image. */
  write(documentId: string, imageId: string, extension: string, bytes: Buffer): Promise<void>;
  /** The image as a stream with its size, or null when it is missing. */
  open(
    documentId: string,
    imageId: string,
    extension: string,
  ): Promise<{ stream: Readable; size: number } | null>;
  remove(documentId: string, imageId: string, extension: string): Promise<void>;
  /** Every image of the document (deleted for good). */
  removeDocument(documentId: string): Promise<void>;
  /** The document's stored images. */
  list(documentId: string): Promise<StoredImage[]>;
  close(): Promise<void>;
}

const EXTENSION = /^[a-z]{3,4}$/;
const FILE_NAME = /^([0-9a-f-]{36})\.([a-z]{3,4})$/;

function checkedDocument(documentId: string): string {
  if (!isUuid(documentId)) throw new Error('Not a document id');
  return documentId;
}

/** `<document id>/<image id>.<ext>`, or an error for anything that is not ids and a known-looking extension. */
function relativeName(documentId: string, imageId: string, extension: string): string {
  if (!isUuid(imageId) || !EXTENSION.test(extension)) throw new Error('Not an image file name');
  return `${checkedDocument(documentId)}/${imageId}.${extension}`;
}

function parseName(documentId: string, name: string): StoredImage | null {
  const match = FILE_NAME.exec(name);
  if (!match || !isUuid(match[1]!)) return null;
  return { documentId, imageId: match[1]!, extension: match[2]! };
}

/** `DATA_DIR/images/…` on the server's disk. */
export class DiskImageStore implements ImageStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'images');
  }

  pathOf(documentId: string, imageId: string, extension: string): string {
    return path.join(this.root, relativeName(documentId, imageId, extension));
  }

  /** Written to a temporary name first and renamed. */
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

  async open(documentId: string, imageId: string, extension: string) {
    const file = this.pathOf(documentId, imageId, extension);
    try {
      const { size } = await stat(file);
      return { stream: createReadStream(file) as Readable, size };
    } catch {
      return null;
    }
  }

  async remove(documentId: string, imageId: string, extension: string): Promise<void> {
    await rm(this.pathOf(documentId, imageId, extension), { force: true });
  }

  async removeDocument(documentId: string): Promise<void> {
    await rm(path.join(this.root, checkedDocument(documentId)), { recursive: true, force: true });
  }

  async list(documentId: string): Promise<StoredImage[]> {
    const folder = path.join(this.root, checkedDocument(documentId));
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      return [];
    }
    return names.map((name) => parseName(documentId, name)).filter((image) => image !== null);
  }

  async close(): Promise<void> {}
}

export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Put before `images/` in every key, e.g. `quillwright/` to share a bucket. */
  prefix: string;
}

export function s3SettingsOf(config: Config): S3Settings | null {
  if (!config.S3_BUCKET) return null;
  return {
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    prefix: config.S3_PREFIX ?? '',
  };
}

/** Largest batch DeleteObjects takes. */
const S3_DELETE_BATCH = 1000;

function isMissing(error: unknown): boolean {
  return (
    error instanceof NoSuchKey ||
    (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
  );
}

/** An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2, …) through the AWS SDK. */
export class S3ImageStore implements ImageStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly root: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.root = `${settings.prefix}images/`;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      // Without keys the SDK's own chain applies (instance role, AWS_* variables, profile).
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // Not every S3-compatible server knows the newer CRC checksums the SDK sends by default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private keyOf(documentId: string, imageId: string, extension: string): string {
    return this.root + relativeName(documentId, imageId, extension);
  }

  private folderOf(documentId: string): string {
    return `${this.root}${checkedDocument(documentId)}/`;
  }

  /** A PUT is atomic in S3: the object appears whole or not at all. */
  async write(documentId: string, imageId: string, extension: string, bytes: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(documentId, imageId, extension),
        Body: bytes,
        ContentLength: bytes.length,
      }),
    );
  }

  async open(documentId: string, imageId: string, extension: string) {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(documentId, imageId, extension) }),
      );
      if (!object.Body || object.ContentLength === undefined) return null;
      return { stream: object.Body as Readable, size: object.ContentLength };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async remove(documentId: string, imageId: string, extension: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(documentId, imageId, extension) }),
    );
  }

  private async keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  async removeDocument(documentId: string): Promise<void> {
    const keys = await this.keysUnder(this.folderOf(documentId));
    for (let start = 0; start < keys.length; start += S3_DELETE_BATCH) {
      const batch = keys.slice(start, start + S3_DELETE_BATCH);
      const result = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      if (result.Errors?.length) {
        throw new Error(`Could not delete ${result.Errors.length} images of document ${documentId}`);
      }
    }
  }

  async list(documentId: string): Promise<StoredImage[]> {
    const folder = this.folderOf(documentId);
    const keys = await this.keysUnder(folder);
    return keys
      .map((key) => parseName(documentId, key.slice(folder.length)))
      .filter((image) => image !== null);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

export function createImageStore(config: Config): ImageStore {
  const s3 = s3SettingsOf(config);
  return s3 ? new S3ImageStore(s3) : new DiskImageStore(config.DATA_DIR);
}
