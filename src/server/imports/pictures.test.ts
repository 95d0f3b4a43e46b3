import { Packer } from 'docx';
import { eq } from 'drizzle-orm';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_SRC_PATTERN, imageSrc } from '../../shared/editor/image-src';
import { documentToDocx, type DocxPicture } from '../../shared/export/docx';
import type { RichTextNode } from '../../shared/schemas/richText';
import { documentImages, documents } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { upload } from './test-helpers';

let server: TestServer;
let writer: TestUser;

beforeAll(async () => {
  server = await startTestServer({ env: { ENFORCE_PLAN_LIMITS: 'true' } });
  writer = await createUser(server, { plan: 'professional' });
});
afterAll(() => server?.close());

const png = (width: number, height: number, r: number) =>
  sharp({ create: { width, height, channels: 3, background: { r, g: 60, b: 90 } } })
    .png()
    .toBuffer();

/** A Word file (our own export) with the given pictures, each with its alt text and maybe a caption. */
async function wordFile(pictures: { bytes: Buffer; alt: string; caption?: string }[]): Promise<Uint8Array> {
  const map = new Map<string, DocxPicture>();
  const nodes: RichTextNode[] = [{ type: 'paragraph', content: [{ type: 'text', text: 'Opening words.' }] }];
  for (const [index, picture] of pictures.entries()) {
    const src = imageSrc(
      '00000000-0000-4000-8000-000000000000',
      `00000000-0000-4000-8000-00000000000${index}`,
    );
    const { width = 1, height = 1 } = await sharp(picture.bytes).metadata();
    map.set(src, { mime: 'image/png', width, height, bytes: new Uint8Array(picture.bytes) });
    nodes.push({
      type: 'image',
      attrs: { src, alt: picture.alt, ...(picture.caption ? { title: picture.caption } : {}) },
    });
  }
  nodes.push({ type: 'paragraph', content: [{ type: 'text', text: 'Closing words.' }] });
  return new Uint8Array(
    await Packer.toBuffer(documentToDocx('Album', { type: 'doc', content: nodes }, { pictures: map })),
  );
}

/** The same Word file with its pictures' bytes replaced (the zip's own media files, in order). */
function replaceMedia(file: Uint8Array, replacements: Uint8Array[]): Uint8Array {
  const entries = unzipSync(file);
  const media = Object.keys(entries)
    .filter((name) => name.startsWith('word/media/'))
    .sort();
  const out: Zippable = {};
  for (const [name, bytes] of Object.entries(entries)) out[name] = bytes;
  media.forEach((name, index) => {
    if (replacements[index]) out[name] = replacements[index];
  });
  return zipSync(out, { level: 6 });
}

const imagesOf = (content: { content?: RichTextNode[] }) =>
  (content.content ?? []).filter((node) => node.type === 'image');

async function storedImages(documentId: string) {
  return server.database.db.select().from(documentImages).where(eq(documentImages.documentId, documentId));
}

describe('pictures in imported Word files', () => {
  it('become images stored in the new document, owned by the writer, with alt text and caption', async () => {
    const [first, second] = await Promise.all([png(300, 200, 220), png(40, 40, 10)]);
    const file = await wordFile([
      { bytes: first, alt: 'A harbour at dawn', caption: 'Figure 1: the harbour' },
      { bytes: second, alt: 'A small square' },
    ]);
    const res = await upload(server, writer.token, 'album.docx', file);
    expect(res.status).toBe(201);
    expect(res.body.degraded).toEqual([]);
    // Each picture a block of its own, with no empty paragraph left where Word's paragraph held it.
    expect(res.body.content.content.map((node: RichTextNode) => node.type)).toEqual([
      'paragraph',
      'image',
      'image',
      'paragraph',
    ]);
    const images = imagesOf(res.body.content);
    expect(images).toHaveLength(2);
    expect(images[0]!.attrs).toMatchObject({ alt: 'A harbour at dawn', title: 'Figure 1: the harbour' });
    expect(images[1]!.attrs).toMatchObject({ alt: 'A small square' });
    expect(images[1]!.attrs?.title ?? null).toBeNull();
    // The caption is the image's, not a paragraph of its own.
    expect(
      JSON.stringify(res.body.content.content.filter((n: RichTextNode) => n.type !== 'image')),
    ).not.toContain('Figure 1');
    for (const image of images) {
      const match = IMAGE_SRC_PATTERN.exec(String(image.attrs?.src));
      expect(match?.[1]).toBe(res.body.id);
    }
    const rows = await storedImages(res.body.id);
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.uploadedBy === writer.id && row.mime === 'image/png')).toBe(true);
    expect(rows.map((row) => `${row.width}x${row.height}`).sort()).toEqual(['300x200', '40x40']);
    // Served to the writer like any uploaded image; what is stored is what the document says.
    const served = await fetch(server.url + String(images[0]!.attrs?.src), {
      headers: { authorization: `Bearer ${writer.token}` },
    });
    expect(served.status).toBe(200);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(300);
    const [row] = await server.database.db.select().from(documents).where(eq(documents.id, res.body.id));
    expect(imagesOf(row!.content as { content: RichTextNode[] }).map((n) => n.attrs?.src)).toEqual(
      images.map((n) => n.attrs?.src),
    );
  });

  it('a 50 MB picture, an SVG with a script and a page named .png are skipped, never stored; the rest comes in', async () => {
    const good = await png(64, 64, 120);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const page = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const huge = new Uint8Array(50 * 1024 * 1024);
    huge.set(good.subarray(0, 64));
    // Four different pictures (the Word writer stores identical bytes once), then their bytes swapped.
    const template = await wordFile([
      { bytes: good, alt: 'Kept' },
      { bytes: await png(64, 64, 121), alt: 'Huge' },
      { bytes: await png(64, 64, 122), alt: 'Scripted vector' },
      { bytes: await png(64, 64, 123), alt: 'Not a picture' },
    ]);
    const file = replaceMedia(template, [good, huge, svg, page]);
    expect(file.length).toBeLessThan(5 * 1024 * 1024);
    const res = await upload(server, writer.token, 'hostile.docx', file);
    expect(res.status).toBe(201);
    expect(res.body.degraded).toEqual([expect.objectContaining({ kind: 'image_skipped', count: 3 })]);
    expect(res.body.degraded[0].message).toMatch(/^3 pictures were skipped/);
    const images = imagesOf(res.body.content);
    expect(images.map((image) => image.attrs?.alt)).toEqual(['Kept']);
    const text = JSON.stringify(res.body.content);
    expect(text).toContain('Huge');
    expect(text).toContain('Scripted vector');
    expect(text).not.toMatch(/<script|alert/);
    const rows = await storedImages(res.body.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.mime).toBe('image/png');
  });

  it("a picture past the owner's plan storage is skipped and said so; the document still comes in", async () => {
    const gratis = await createUser(server);
    // The plan's 100 MB already used by an image of another of their documents.
    const [other] = await server.database.db
      .insert(documents)
      .values({ userId: gratis.id, title: 'Full', content: { type: 'doc', content: [] } })
      .returning({ id: documents.id });
    await server.database.db.insert(documentImages).values({
      documentId: other!.id,
      uploadedBy: gratis.id,
      bytes: 100 * 1024 * 1024,
      mime: 'image/png',
      width: 1,
      height: 1,
    });
    const res = await upload(
      server,
      gratis.token,
      'over.docx',
      await wordFile([{ bytes: await png(20, 20, 5), alt: 'Over' }]),
    );
    expect(res.status).toBe(201);
    expect(res.body.degraded).toEqual([expect.objectContaining({ kind: 'image_skipped', count: 1 })]);
    expect(imagesOf(res.body.content)).toHaveLength(0);
    expect(JSON.stringify(res.body.content)).toContain('Over');
    expect(await storedImages(res.body.id)).toHaveLength(0);
  });

  it('inserting a Word file into an open document keeps the pictures as their alt text', async () => {
    const file = await wordFile([{ bytes: await png(20, 20, 99), alt: 'Inline alt' }]);
    const res = await upload(server, writer.token, 'insert.docx', file, '/api/documents/import/convert');
    expect(res.status).toBe(200);
    expect(imagesOf(res.body.content)).toHaveLength(0);
    expect(JSON.stringify(res.body.content)).toContain('Inline alt');
    expect(res.body.degraded).toEqual([expect.objectContaining({ kind: 'image', count: 1 })]);
  });
});
