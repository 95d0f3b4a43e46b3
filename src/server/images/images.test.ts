import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMAGE_DIMENSION_PX, MAX_IMAGE_UPLOAD_BYTES } from '../../shared/constants';
import { documentImages } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { seedImage, startTestS3, type TestS3 } from './testing';

const png = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .png()
    .toBuffer();

/** A photo as a phone writes it: EXIF with the camera and a GPS position, and an orientation to apply. */
const jpegWithGps = () =>
  sharp({ create: { width: 80, height: 40, channels: 3, background: { r: 20, g: 90, b: 200 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'PhoneMaker', Model: 'Pocket 9' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2964/100', GPSLongitudeRef: 'E' },
    })
    .toBuffer();

describe('images in documents', () => {
  let server: TestServer;
  let owner: TestUser;
  let stranger: TestUser;
  let ip = 0;

  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: 'true', ENFORCE_PLAN_LIMITS: 'true' } });
    [owner, stranger] = await Promise.all([createUser(server, { plan: 'professional' }), createUser(server)]);
  });
  afterAll(async () => {
    await server?.close();
  });

  const address = () => {
    ip += 1;
    return `10.9.${(ip >> 8) & 255}.${ip & 255}`;
  };

  async function newDocument(as = owner): Promise<string> {
    const res = await server.request('POST', '/api/documents', {
      token: as.token,
      body: { title: 'Pictures', content: { type: 'doc', content: [] } },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function upload(
    documentId: string,
    bytes: Uint8Array,
    {
      name = 'picture.png',
      type = 'image/png',
      token = owner.token as string | undefined,
      headers = {},
    } = {},
  ) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const response = await fetch(`${server.url}/api/documents/${documentId}/images`, {
      method: 'POST',
      body: form,
      headers: {
        'x-forwarded-for': address(),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  async function fetchImage(src: string, headers: Record<string, string> = {}) {
    const response = await fetch(server.url + src, { headers: { 'x-forwarded-for': address(), ...headers } });
    return {
      status: response.status,
      headers: response.headers,
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  }

  async function shareToken(documentId: string): Promise<string> {
    const shared = await server.request('PUT', `/api/documents/${documentId}/share`, {
      token: owner.token,
      body: { isPublic: true, allowEditing: false, allowSuggesting: false },
    });
    expect(shared.status).toBe(200);
    const visit = await server.request('GET', `/api/shared/${documentId}`);
    expect(visit.status).toBe(200);
    return visit.body.shareToken as string;
  }

  it('stores a PNG and serves it back to the owner with safe headers', async () => {
    const documentId = await newDocument();
    const uploaded = await upload(documentId, await png());
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ mime: 'image/png', width: 64, height: 48 });
    expect(uploaded.body.src).toBe(`/api/documents/${documentId}/images/${uploaded.body.id}`);
    const file = path.join(server.config.DATA_DIR, 'images', documentId, `${uploaded.body.id}.png`);
    expect(existsSync(file)).toBe(true);

    const served = await fetchImage(uploaded.body.src, { authorization: `Bearer ${owner.token}` });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toMatch(/^inline; filename="image-[0-9a-f]{8}\.png"$/);
    expect(served.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect((await sharp(served.bytes).metadata()).width).toBe(64);
  });

  it('re-encodes a JPEG upright and without its EXIF (no GPS position, no camera)', async () => {
    const documentId = await newDocument();
    const original = await jpegWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    expect(original.includes(Buffer.from('PhoneMaker'))).toBe(true);
    const uploaded = await upload(documentId, original, { name: 'photo.jpg', type: 'image/jpeg' });
    expect(uploaded.status).toBe(201);
    // Orientation 6 (rotate 90°): the stored image is turned upright, so its sides swap.
    expect(uploaded.body).toMatchObject({ mime: 'image/jpeg', width: 40, height: 80 });
    const served = await fetchImage(uploaded.body.src, { authorization: `Bearer ${owner.token}` });
    const metadata = await sharp(served.bytes).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.orientation ?? 1).toBe(1);
    expect(served.bytes.includes(Buffer.from('PhoneMaker'))).toBe(false);
  });

  it('scales a huge image down to the longest side allowed', async () => {
    const documentId = await newDocument();
    const uploaded = await upload(documentId, await png(4000, 1000));
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.width).toBe(MAX_IMAGE_DIMENSION_PX);
    expect(uploaded.body.height).toBe(640);
  });

  it('refuses an SVG with a script and an HTML page named .png (415 unsupported_image)', async () => {
    const documentId = await newDocument();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const refusedSvg = await upload(documentId, svg, { name: 'logo.svg', type: 'image/svg+xml' });
    expect(refusedSvg.status).toBe(415);
    expect(refusedSvg.body.code).toBe('unsupported_image');
    expect(refusedSvg.body.message).toMatch(/PNG, JPEG, WebP, GIF or AVIF/);

    const html = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
    const refusedHtml = await upload(documentId, html, { name: 'cat.png', type: 'image/png' });
    expect(refusedHtml.status).toBe(415);
    expect(refusedHtml.body.code).toBe('unsupported_image');

    // A real PNG signature over garbage does not decode: refused the same way.
    const broken = Buffer.concat([(await png()).subarray(0, 40), Buffer.alloc(200, 7)]);
    expect((await upload(documentId, broken)).status).toBe(415);
  });

  it('refuses a file over the per-file limit with 413', async () => {
    const documentId = await newDocument();
    const big = Buffer.concat([await png(), Buffer.alloc(MAX_IMAGE_UPLOAD_BYTES + 1024)]);
    const refused = await upload(documentId, big);
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe('image_too_large');
  });

  it("enforces the owner's image storage of their plan (403 plan_limit)", async () => {
    const writer = await createUser(server);
    const documentId = await newDocument(writer);
    // The Gratis plan's storage, all used already.
    await server.database.db.insert(documentImages).values({
      documentId,
      uploadedBy: writer.id,
      bytes: 100 * 1024 * 1024,
      mime: 'image/png',
      width: 1,
      height: 1,
    });
    const refused = await upload(documentId, await png(), { token: writer.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'plan_limit', plan: 'gratis' });
    expect(existsSync(path.join(server.config.DATA_DIR, 'images', documentId))).toBe(true);
  });

  it('answers 404 to a stranger, 401 without credentials, and lets only editors upload', async () => {
    const documentId = await newDocument();
    const uploaded = await upload(documentId, await png());
    const asStranger = await fetchImage(uploaded.body.src, { authorization: `Bearer ${stranger.token}` });
    expect(asStranger.status).toBe(404);
    expect((await fetchImage(uploaded.body.src)).status).toBe(401);
    expect((await upload(documentId, await png(), { token: stranger.token })).status).toBe(404);
    const unknown = `/api/documents/${documentId}/images/00000000-0000-4000-8000-000000000000`;
    expect((await fetchImage(unknown, { authorization: `Bearer ${owner.token}` })).status).toBe(404);
    // A view-only share link reads, never uploads.
    const token = await shareToken(documentId);
    expect(
      (await upload(documentId, await png(), { token: '', headers: { 'x-share-token': token } })).status,
    ).toBe(404);
  });

  it("a share link reads its document's images; another document's share token gets 404", async () => {
    const documentId = await newDocument();
    const other = await newDocument();
    const uploaded = await upload(documentId, await png());
    const token = await shareToken(documentId);
    const otherToken = await shareToken(other);
    expect((await fetchImage(uploaded.body.src, { 'x-share-token': token })).status).toBe(200);
    expect((await fetchImage(uploaded.body.src, { 'x-share-token': otherToken })).status).toBe(404);

    // The <img> address: an access token minted for the visitor, which stops working with the link.
    const grant = await server.request('GET', `/api/documents/${documentId}/image-access`, {
      headers: { 'x-share-token': token },
    });
    expect(grant.status).toBe(200);
    const url = `${uploaded.body.src}?${grant.body.param}=${grant.body.token}`;
    expect((await fetchImage(url)).status).toBe(200);
    const otherGrant = await server.request('GET', `/api/documents/${other}/image-access`, {
      headers: { 'x-share-token': otherToken },
    });
    expect((await fetchImage(`${uploaded.body.src}?access=${otherGrant.body.token}`)).status).toBe(404);
    await server.request('PUT', `/api/documents/${documentId}/share`, {
      token: owner.token,
      body: { isPublic: false, allowEditing: false, allowSuggesting: false },
    });
    expect((await fetchImage(url)).status).toBe(404);
  });

  it("a signed-in reader's <img> token ends with their session", async () => {
    const documentId = await newDocument();
    const uploaded = await upload(documentId, await png());
    const reader = await createUser(server);
    const grant = await server.request('GET', `/api/documents/${documentId}/image-access`, {
      token: reader.token,
    });
    expect(grant.status).toBe(404);
    const mine = await server.request('GET', `/api/documents/${documentId}/image-access`, {
      token: owner.token,
    });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('no-store');
    const url = `${uploaded.body.src}?access=${mine.body.token}`;
    expect((await fetchImage(url)).status).toBe(200);
    expect((await fetchImage(`${uploaded.body.src}?access=forged.token.value`)).status).toBe(404);
    const signedOut = await server.request('POST', '/api/auth/logout', { token: owner.token });
    expect(signedOut.status).toBe(204);
    expect((await fetchImage(url)).status).toBe(404);
    owner = await createUser(server, { plan: 'professional' });
  });

  it("removes a document's image files when it is deleted for good", async () => {
    const documentId = await newDocument();
    const uploaded = await upload(documentId, await png());
    const folder = path.join(server.config.DATA_DIR, 'images', documentId);
    expect(existsSync(folder)).toBe(true);
    expect(
      (await server.request('DELETE', `/api/documents/${documentId}`, { token: owner.token })).status,
    ).toBe(204);
    // In the trash: still on disk (it can come back), but no one reads it.
    expect(existsSync(folder)).toBe(true);
    expect((await fetchImage(uploaded.body.src, { authorization: `Bearer ${owner.token}` })).status).toBe(
      404,
    );
    expect((await server.request('DELETE', `/api/trash/${documentId}`, { token: owner.token })).status).toBe(
      204,
    );
    expect(existsSync(folder)).toBe(false);
    const rows = await server.database.db.select().from(documentImages);
    expect(rows.some((row) => row.documentId === documentId)).toBe(false);
  });

  it('keeps an animated GIF animated', async () => {
    const documentId = await newDocument();
    const frame = (colour: string) =>
      sharp({ create: { width: 20, height: 20, channels: 4, background: colour } })
        .png()
        .toBuffer();
    const threeFrames = await sharp([await frame('#f00'), await frame('#0f0'), await frame('#00f')], {
      join: { animated: true },
    })
      .gif({ loop: 0 })
      .toBuffer();
    const uploaded = await upload(documentId, threeFrames, { name: 'spin.gif', type: 'image/gif' });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({ mime: 'image/gif', width: 20, height: 20 });
    const served = await fetchImage(uploaded.body.src, { authorization: `Bearer ${owner.token}` });
    expect((await sharp(served.bytes, { animated: true }).metadata()).pages).toBe(3);
  });
});

describe('images in documents, stored in an S3-compatible bucket', () => {
  let s3: TestS3;
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    s3 = await startTestS3();
    server = await startTestServer({ env: s3.env });
    owner = await createUser(server);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const objectsOf = (documentId: string) => {
    const folder = path.join(s3.directory, s3.env.S3_BUCKET!, 'images', documentId);
    return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('._S3rver_object')) : [];
  };

  it('uploads into the bucket, serves the bytes back, and deletes them with the document', async () => {
    const created = await server.request('POST', '/api/documents', {
      token: owner.token,
      body: { title: 'In the bucket', content: { type: 'doc', content: [] } },
    });
    const documentId = created.body.id as string;
    const form = new FormData();
    const original = await png(120, 90);
    form.append('file', new Blob([new Uint8Array(original)], { type: 'image/png' }), 'bucket.png');
    const response = await fetch(`${server.url}/api/documents/${documentId}/images`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(response.status).toBe(201);
    const uploaded = (await response.json()) as { id: string; src: string; bytes: number };
    expect(objectsOf(documentId)).toEqual([`${uploaded.id}.png._S3rver_object`]);
    // Nothing on the server's own disk.
    expect(existsSync(path.join(server.config.DATA_DIR, 'images'))).toBe(false);

    const served = await fetch(server.url + uploaded.src, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('content-length')).toBe(String(uploaded.bytes));
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-disposition')).toMatch(/^inline; filename="image-[0-9a-f]{8}\.png"$/);
    expect(served.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.length).toBe(uploaded.bytes);
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 120, height: 90 });

    expect(
      (await server.request('DELETE', `/api/documents/${documentId}`, { token: owner.token })).status,
    ).toBe(204);
    expect(objectsOf(documentId)).toHaveLength(1);
    expect((await server.request('DELETE', `/api/trash/${documentId}`, { token: owner.token })).status).toBe(
      204,
    );
    await expect.poll(() => objectsOf(documentId)).toEqual([]);
  });

  it('answers 404 for an image whose object is gone from the bucket', async () => {
    const created = await server.request('POST', '/api/documents', {
      token: owner.token,
      body: { title: 'Lost', content: { type: 'doc', content: [] } },
    });
    const documentId = created.body.id as string;
    const imageId = await seedImage(server, documentId, owner.id, await png());
    await server.app.imageStore.remove(documentId, imageId, 'png');
    const served = await fetch(`${server.url}/api/documents/${documentId}/images/${imageId}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(served.status).toBe(404);
  });
});
