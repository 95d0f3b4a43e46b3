import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { strFromU8, unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageSrc } from '../../shared/editor/image-src';
import type { RichTextNode } from '../../shared/schemas/richText';
import { documents } from '../db/schema';
import { seedImage } from '../images/testing';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

const run = promisify(execFile);
const SOFFICE = process.env.SOFFICE_PATH ?? '/usr/bin/soffice';

let server: TestServer;
let owner: TestUser;
let stranger: TestUser;
const work = mkdtempSync(path.join(os.tmpdir(), 'qw-pictures-'));

beforeAll(async () => {
  server = await startTestServer();
  [owner, stranger] = await Promise.all([createUser(server), createUser(server)]);
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

const picture = (width: number, height: number, colour: { r: number; g: number; b: number }) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

async function insertDocument(userId: string, title: string, content: RichTextNode[] = []) {
  const [row] = await server.database.db
    .insert(documents)
    .values({ userId, title, content: { type: 'doc', content } })
    .returning({ id: documents.id });
  return row!.id;
}

async function setContent(documentId: string, content: RichTextNode[]) {
  const { eq } = await import('drizzle-orm');
  await server.database.db
    .update(documents)
    .set({ content: { type: 'doc', content } })
    .where(eq(documents.id, documentId));
}

async function exportDocx(documentId: string, token = owner.token) {
  const res = await fetch(`${server.url}/api/documents/${documentId}/export?format=docx`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

const mediaOf = (files: Record<string, Uint8Array>) =>
  Object.entries(files).filter(([name]) => name.startsWith('word/media/'));

describe('pictures in the Word export', () => {
  let documentId: string;
  let wide: Buffer;
  let small: Buffer;

  beforeAll(async () => {
    documentId = await insertDocument(owner.id, 'Two pictures');
    [wide, small] = await Promise.all([
      picture(1600, 800, { r: 200, g: 30, b: 30 }),
      picture(120, 90, { r: 20, g: 120, b: 200 }),
    ]);
    const wideId = await seedImage(server, documentId, owner.id, wide);
    const smallId = await seedImage(server, documentId, owner.id, small);
    await setContent(documentId, [
      { type: 'paragraph', content: [{ type: 'text', text: 'Before the pictures.' }] },
      {
        type: 'image',
        attrs: {
          src: imageSrc(documentId, wideId),
          alt: 'A red field',
          title: 'The field at noon',
          width: 50,
        },
      },
      {
        type: 'image',
        attrs: { src: imageSrc(documentId, smallId), alt: 'A blue square', width: 100, align: 'right' },
      },
    ]);
  });

  it('embeds each picture with its stored bytes, its alt text as description and its caption under it', async () => {
    const files = unzipSync(await exportDocx(documentId));
    const media = mediaOf(files).map(([, bytes]) => Buffer.from(bytes));
    expect(media).toHaveLength(2);
    expect(media.some((bytes) => bytes.equals(wide))).toBe(true);
    expect(media.some((bytes) => bytes.equals(small))).toBe(true);
    const xml = strFromU8(files['word/document.xml']!);
    expect(xml).toContain('descr="A red field"');
    expect(xml).toContain('descr="A blue square"');
    expect(xml).toMatch(/<w:pStyle w:val="Caption"\/>.*The field at noon/s);
    // 50 % of a 600 px column: 300 px wide (9525 EMU a pixel), half as tall; the small one keeps its size.
    expect(xml).toContain(`cx="${300 * 9525}" cy="${150 * 9525}"`);
    expect(xml).toContain(`cx="${120 * 9525}" cy="${90 * 9525}"`);
    expect(xml).not.toContain('[A red field]');
  });

  it('LibreOffice opens the file and finds both pictures', async () => {
    const docx = path.join(work, 'pictures.docx');
    writeFileSync(docx, await exportDocx(documentId));
    const profile = `-env:UserInstallation=file://${path.join(work, 'profile')}`;
    const out = path.join(work, 'html');
    await run(SOFFICE, [profile, '--headless', '--convert-to', 'html', '--outdir', out, docx], {
      timeout: 120_000,
    });
    const html = readFileSync(path.join(out, 'pictures.html'), 'utf8');
    const images = html.match(/<img\b[^>]*>/g) ?? [];
    expect(images).toHaveLength(2);
    expect(images.join('\n')).toMatch(/name="A red field"[^>]*width="300" height="150"/);
    // The pictures LibreOffice wrote out beside the page.
    expect(readdirSync(out).filter((name) => /\.(png|jpe?g|gif)$/i.test(name))).toHaveLength(2);
  }, 150_000);

  it('an image the reader may not see, or whose file is gone, is its alt text (never a failure)', async () => {
    const theirs = await insertDocument(stranger.id, 'Private');
    const theirImage = await seedImage(server, theirs, stranger.id, small);
    const mine = await insertDocument(owner.id, 'Borrowed');
    const goneId = await seedImage(server, mine, owner.id, small);
    await server.app.imageStore.remove(mine, goneId, 'png');
    await setContent(mine, [
      { type: 'image', attrs: { src: imageSrc(theirs, theirImage), alt: 'Not yours' } },
      { type: 'image', attrs: { src: imageSrc(mine, goneId), alt: 'Gone', title: 'Still captioned' } },
    ]);
    const files = unzipSync(await exportDocx(mine));
    expect(mediaOf(files)).toHaveLength(0);
    const xml = strFromU8(files['word/document.xml']!);
    expect(xml).toContain('[Not yours]');
    expect(xml).toContain('[Gone]');
    expect(xml).toContain('Still captioned');
  });

  it('a folder exported as Word files carries the pictures too', async () => {
    const folder = await server.request('POST', '/api/folders', {
      token: owner.token,
      body: { name: 'Illustrated' },
    });
    expect(folder.status).toBe(201);
    const placed = await server.request('PUT', `/api/documents/${documentId}/folder`, {
      token: owner.token,
      body: { folderId: folder.body.id },
    });
    expect(placed.status).toBe(200);
    const res = await fetch(`${server.url}/api/folders/${folder.body.id}/export?format=docx`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const word = Object.entries(zip).find(([name]) => name.endsWith('Two pictures.docx'));
    expect(word).toBeTruthy();
    expect(mediaOf(unzipSync(word![1]))).toHaveLength(2);
  });
});
