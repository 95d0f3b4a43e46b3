import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { dumpEmbedded } from '../db/backup';
import { documents, users } from '../db/schema';
import { createImageStore } from '../images';
import { startTestS3 } from '../images/testing';
import { testDatabaseKind } from '../test/database';
import { createUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { backupInstance, restoreInstance } from './archive';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'qw-backup-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const photo = () =>
  sharp({ create: { width: 90, height: 60, channels: 3, background: { r: 10, g: 120, b: 60 } } })
    .jpeg()
    .toBuffer();

async function uploadImage(server: TestServer, token: string, documentId: string, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
  const response = await fetch(`${server.url}/api/documents/${documentId}/images`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { src: string };
}

async function readImage(server: TestServer, token: string, src: string) {
  const response = await fetch(server.url + src, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

const diskStore = (dataDir: string) =>
  createImageStore(loadConfig({ JWT_SECRET: 'x'.repeat(40), DATA_DIR: dataDir }));

// The embedded database only; PostgreSQL is backed up with pg_dump (docs/reliability.md).
describe.runIf(testDatabaseKind() === 'pglite')('backups of the embedded database and its images', () => {
  /** The archive the image test makes, restored into a bucket by the next. */
  let diskBackup: { archive: string; documentId: string; imageId: string; bytes: Buffer } | undefined;

  it('a backup restored into a fresh data directory has every document', async () => {
    const source = tempDir();
    const database = await openDatabase({ dataDir: source });
    const [user] = await database.db
      .insert(users)
      .values({ email: 'backup@example.com', passwordHash: 'x' })
      .returning({ id: users.id });
    const titles = Array.from({ length: 25 }, (_, i) => `Chapter ${i + 1}`);
    for (const title of titles) {
      await database.db.insert(documents).values({
        userId: user!.id,
        title,
        content: {
          type: 'doc',
          content: [{ type: 'paragraph', content: [{ type: 'text', text: `${title} text` }] }],
        },
      });
    }
    // A running server holds the lock: backing up now is refused rather than copying a live directory.
    await expect(
      backupInstance(source, path.join(tempDir(), 'x.zip'), { includeImages: true }),
    ).rejects.toThrow(/Another Quillwright server/);
    await database.close();

    const archive = path.join(tempDir(), 'backup.zip');
    const { bytes } = await backupInstance(source, archive, { includeImages: true });
    expect(bytes).toBeGreaterThan(1000);

    const target = tempDir();
    await restoreInstance(archive, target, { store: diskStore(target), imagesOnDisk: true });
    await expect(
      restoreInstance(archive, target, { store: diskStore(target), imagesOnDisk: true }),
    ).rejects.toThrow(/already holds a database/);
    const restored = await openDatabase({ dataDir: target });
    try {
      const rows = await restored.db
        .select({ title: documents.title, content: documents.content })
        .from(documents);
      expect(rows.map((r) => r.title).sort()).toEqual([...titles].sort());
      expect(JSON.stringify(rows[0]!.content)).toContain('text');
    } finally {
      await restored.close();
    }
  }, 240_000);

  it('backs up the images, and after the data directory is wiped a restore serves them again', async () => {
    const dataDir = tempDir();
    let server = await startTestServer({ storage: { dataDir } });
    const owner = await createUser(server);
    const created = await server.request('POST', '/api/documents', {
      token: owner.token,
      body: { title: 'Holiday', content: { type: 'doc', content: [] } },
    });
    const original = await photo();
    const uploaded = await uploadImage(server, owner.token, created.body.id, original);
    const served = await readImage(server, owner.token, uploaded.src);
    expect(served.status).toBe(200);
    await server.close();

    const archive = path.join(tempDir(), 'with-images.zip');
    const result = await backupInstance(dataDir, archive, { includeImages: true });
    expect(result.images).toBe(1);

    // Everything gone: the database, the images, the secrets.
    rmSync(dataDir, { recursive: true, force: true });
    const restored = await restoreInstance(archive, dataDir, {
      store: diskStore(dataDir),
      imagesOnDisk: true,
    });
    expect(restored).toEqual({ images: 1, skipped: [] });

    server = await startTestServer({ storage: { dataDir } });
    try {
      const again = await readImage(server, owner.token, uploaded.src);
      expect(again.status).toBe(200);
      expect(again.bytes.equals(served.bytes)).toBe(true);
    } finally {
      await server.close();
    }
    // A second restore over it is refused unless forced, and forced it replaces the images too.
    await expect(
      restoreInstance(archive, dataDir, { store: diskStore(dataDir), imagesOnDisk: true }),
    ).rejects.toThrow(/already holds a database/);
    writeFileSync(path.join(dataDir, 'images', created.body.id, 'stray.txt'), 'not an image');
    await restoreInstance(archive, dataDir, { store: diskStore(dataDir), imagesOnDisk: true, force: true });
    expect(readdirSync(path.join(dataDir, 'images', created.body.id))).toHaveLength(1);
    diskBackup = {
      archive,
      documentId: created.body.id,
      imageId: uploaded.src.split('/').pop()!,
      bytes: served.bytes,
    };
  }, 240_000);

  it('restores the images of a disk backup into an S3 bucket (moving to object storage)', async () => {
    expect(diskBackup, 'the backup of the test before').toBeDefined();
    const { archive, documentId, imageId, bytes } = diskBackup!;
    const s3 = await startTestS3();
    const target = tempDir();
    const bucket = createImageStore(loadConfig({ JWT_SECRET: 'x'.repeat(40), DATA_DIR: target, ...s3.env }));
    try {
      expect(await restoreInstance(archive, target, { store: bucket, imagesOnDisk: false })).toEqual({
        images: 1,
        skipped: [],
      });
      const opened = await bucket.open(documentId, imageId, 'jpg');
      const chunks: Buffer[] = [];
      for await (const chunk of opened!.stream) chunks.push(Buffer.from(chunk as Uint8Array));
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      // Nothing of the images on the disk: they went to the bucket.
      expect(readdirSync(target).sort()).toEqual(['pglite']);
    } finally {
      await bucket.close();
      await s3.close();
    }
  }, 240_000);

  it('never writes an archive entry outside DATA_DIR/images, and still restores an archive of the database alone', async () => {
    const source = tempDir();
    const database = await openDatabase({ dataDir: source });
    await database.close();
    const dump = await dumpEmbedded(source);

    const legacy = path.join(tempDir(), 'legacy.tar.gz');
    writeFileSync(legacy, dump);
    const fromLegacy = tempDir();
    expect(
      await restoreInstance(legacy, fromLegacy, { store: diskStore(fromLegacy), imagesOnDisk: true }),
    ).toEqual({ images: 0, skipped: [] });

    const hostile = path.join(tempDir(), 'hostile.zip');
    const escape = '../../escaped.png';
    writeFileSync(
      hostile,
      zipSync({
        'database.tar.gz': dump,
        [`images/${escape}`]: new Uint8Array([1, 2, 3]),
        'images/not-a-uuid/also-not.png': new Uint8Array([1]),
        '/etc/passwd': new Uint8Array([1]),
      }),
    );
    const target = path.join(tempDir(), 'deep', 'data');
    const result = await restoreInstance(hostile, target, { store: diskStore(target), imagesOnDisk: true });
    expect(result.images).toBe(0);
    expect(result.skipped.sort()).toEqual(
      ['/etc/passwd', `images/${escape}`, 'images/not-a-uuid/also-not.png'].sort(),
    );
    expect(readdirSync(path.dirname(target))).toEqual(['data']);
    expect(readdirSync(target).sort()).toEqual(['pglite']);

    const junk = path.join(tempDir(), 'junk.zip');
    writeFileSync(junk, 'plain text');
    await expect(
      restoreInstance(junk, tempDir(), { store: diskStore(target), imagesOnDisk: true }),
    ).rejects.toThrow(/not a Quillwright backup/);
  }, 240_000);
});
