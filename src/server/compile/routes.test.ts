import { strFromU8, unzipSync } from 'fflate';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageSrc } from '../../shared/editor/image-src';
import { eq } from 'drizzle-orm';
import { documents } from '../db/schema';
import { seedImage, testPng } from '../images/testing';
import { createUser, type TestUser } from '../test/factories';
import { epubcheck, pdfInfo, pdfText } from './book-tools';
import { startTestServer, type TestServer } from '../test/server';

let server: TestServer;
let owner: TestUser;
let stranger: TestUser;

const doc = (...content: unknown[]) => ({ type: 'doc', content });
const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

async function insert(title: string, content: unknown, userId = owner.id) {
  const [row] = await server.database.db
    .insert(documents)
    .values({ userId, title, content })
    .returning({ id: documents.id });
  return row!.id;
}

async function folderWith(name: string, titles: string[]): Promise<{ id: string; documentIds: string[] }> {
  const folder = await server.request('POST', '/api/folders', { token: owner.token, body: { name } });
  expect(folder.status).toBe(201);
  const documentIds: string[] = [];
  for (const title of titles) {
    const id = await insert(title, doc(paragraph(`The text of ${title}.`)));
    const placed = await server.request('PUT', `/api/documents/${id}/folder`, {
      token: owner.token,
      body: { folderId: folder.body.id },
    });
    expect(placed.status).toBe(200);
    documentIds.push(id);
  }
  return { id: folder.body.id, documentIds };
}

function post(path: string, body: unknown, token = owner.token) {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await createUser(server);
  stranger = await createUser(server);
});
afterAll(() => server?.close());

const run = promisify(execFile);
const SOFFICE = process.env.SOFFICE_PATH ?? '/usr/bin/soffice';
/** EPUBCheck (Java) and LibreOffice take their time, more so on a busy machine. */
const TOOLS_TIMEOUT_MS = 240_000;

describe('compiling a folder', () => {
  it('lists its documents as chapters in folder order, and compiles them to an EPUB in that order', async () => {
    const folder = await folderWith('The Mill', ['Dedication', 'Spring', 'Summer', 'Autumn']);
    const outline = await server.request('GET', `/api/folders/${folder.id}/compile`, { token: owner.token });
    expect(outline.status).toBe(200);
    expect(outline.body.title).toBe('The Mill');
    expect(outline.body.chapters.map((c: { title: string }) => c.title)).toEqual([
      'Dedication',
      'Spring',
      'Summer',
      'Autumn',
    ]);
    expect(outline.body.chapters[1].words).toBe(4);

    const res = await post(`/api/folders/${folder.id}/compile`, {
      format: 'epub',
      author: 'Ada Lovelace',
      chapterNumbering: 'number',
      frontMatter: [folder.documentIds[0]],
      exclude: [folder.documentIds[2]],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/epub+zip');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="the_mill_\d{4}-\d\d-\d\d\.epub"$/,
    );
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const nav = strFromU8(files['OEBPS/nav.xhtml']!);
    const titles = [...nav.matchAll(/<li><a href="chapter-\d+\.xhtml">([^<]+)<\/a><\/li>/g)].map((m) => m[1]);
    expect(titles).toEqual(['Dedication', 'Chapter 1: Spring', 'Chapter 2: Autumn']);
  });

  it('answers 404 for another user and 400 for an unknown format', async () => {
    const folder = await folderWith('Private', ['One']);
    expect((await post(`/api/folders/${folder.id}/compile`, { format: 'epub' }, stranger.token)).status).toBe(
      404,
    );
    expect(
      (await server.request('GET', `/api/folders/${folder.id}/compile`, { token: stranger.token })).status,
    ).toBe(404);
    const bad = await post(`/api/folders/${folder.id}/compile`, { format: 'mobi' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).code).toBe('validation_failed');
  });
});

describe('compiling a document', () => {
  it('compiles to PDF and Word with the right types; the image is in the EPUB; strangers get 404', async () => {
    const id = await insert('Short Book', doc(paragraph('Intro.')));
    const imageId = await seedImage(server, id, owner.id, await testPng(30, 20));
    await server.database.db.update(documents).set({
      content: doc(
        { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'First' }] },
        paragraph('One.'),
        { type: 'image', attrs: { src: imageSrc(id, imageId), alt: 'A red box' } },
        { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'Second' }] },
        paragraph('Two.'),
      ),
    });
    const outline = await server.request('GET', `/api/documents/${id}/compile`, { token: owner.token });
    expect(outline.body.chapters.map((c: { id: string; title: string }) => [c.id, c.title])).toEqual([
      ['h1', 'First'],
      ['h2', 'Second'],
    ]);

    const pdf = await post(`/api/documents/${id}/compile`, { format: 'pdf', trim: 'a5' });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const word = await post(`/api/documents/${id}/compile`, { format: 'docx', style: 'manuscript' });
    expect(word.status).toBe(200);
    expect(word.headers.get('content-disposition')).toMatch(/\.docx"$/);
    const xml = strFromU8(unzipSync(new Uint8Array(await word.arrayBuffer()))['word/document.xml']!);
    expect(xml).toContain('First');

    const epub = await post(`/api/documents/${id}/compile`, { format: 'epub' });
    const files = unzipSync(new Uint8Array(await epub.arrayBuffer()));
    expect(files[`OEBPS/images/${imageId}.png`]?.length).toBeGreaterThan(50);

    expect((await post(`/api/documents/${id}/compile`, { format: 'pdf' }, stranger.token)).status).toBe(404);
  });

  it('serves EPUB and PDF from the export route too', async () => {
    const id = await insert('Exported', doc(paragraph('Some text.')));
    for (const [format, type] of [
      ['epub', 'application/epub+zip'],
      ['pdf', 'application/pdf'],
    ]) {
      const res = await fetch(`${server.url}/api/documents/${id}/export?format=${format}`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(res.status, format).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-disposition')).toContain(`.${format}"`);
    }
  });
});

describe('the fixture book', () => {
  const chapterTitles = Array.from({ length: 12 }, (_, i) => `Part ${String.fromCharCode(65 + i)}`);
  const work = mkdtempSync(path.join(tmpdir(), 'qw-fixture-book-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  /** A foreword, then 12 chapters: notes in two, pictures in two, scene breaks in one. */
  async function fixtureFolder() {
    const folder = await server.request('POST', '/api/folders', {
      token: owner.token,
      body: { name: 'The Fixture' },
    });
    expect(folder.status).toBe(201);
    const place = async (id: string) =>
      expect(
        (
          await server.request('PUT', `/api/documents/${id}/folder`, {
            token: owner.token,
            body: { folderId: folder.body.id },
          })
        ).status,
      ).toBe(200);
    const foreword = await insert('Foreword', doc(paragraph('Before the book begins.')));
    await place(foreword);
    for (const [index, title] of chapterTitles.entries()) {
      const id = await insert(title, doc(paragraph(`Placeholder ${index}.`)));
      const content: unknown[] = [paragraph(`Opening of ${title}.`)];
      if (index === 2 || index === 8) {
        const imageId = await seedImage(server, id, owner.id, await testPng(30, 20));
        content.push({ type: 'image', attrs: { src: imageSrc(id, imageId), alt: `Map of ${title}` } });
      }
      if (index === 4) content.push({ type: 'horizontalRule' }, paragraph('After the break.'));
      if (index === 1 || index === 6) {
        content.push(
          {
            type: 'paragraph',
            content: [
              { type: 'text', text: `A claim in ${title}` },
              { type: 'footnoteReference', attrs: { id: `note${index}` } },
              { type: 'text', text: '.' },
            ],
          },
          {
            type: 'footnotes',
            content: [
              { type: 'footnote', attrs: { id: `note${index}` }, content: [paragraph(`Source ${index}.`)] },
            ],
          },
        );
      }
      await server.database.db
        .update(documents)
        .set({ content: doc(...content) })
        .where(eq(documents.id, id));
      await place(id);
    }
    return { folderId: folder.body.id as string, foreword };
  }

  async function compile(folderId: string, body: Record<string, unknown>, name: string) {
    const res = await post(`/api/folders/${folderId}/compile`, body);
    expect(res.status, await res.clone().text()).toBe(200);
    const file = path.join(work, name);
    writeFileSync(file, new Uint8Array(await res.arrayBuffer()));
    return file;
  }

  it(
    'compiles to an EPUB EPUBCheck passes, a Word file LibreOffice lays out at 6×9, and a PDF with every chapter in order',
    async () => {
      const { folderId, foreword } = await fixtureFolder();
      const options = {
        author: 'Ada Lovelace',
        chapterNumbering: 'number',
        frontMatter: [foreword],
        trim: '6x9',
      };

      const epub = await compile(folderId, { ...options, format: 'epub' }, 'fixture.epub');
      const check = await epubcheck(epub);
      expect(check, check.report).toMatchObject({ fatals: 0, errors: 0, warnings: 0 });
      const files = unzipSync(new Uint8Array(readFileSync(epub)));
      const nav = strFromU8(files['OEBPS/nav.xhtml']!);
      expect(nav.indexOf('Foreword')).toBeLessThan(nav.indexOf('Chapter 1: Part A'));
      expect(nav).toContain('Chapter 12: Part L');
      expect(Object.keys(files).filter((name) => name.startsWith('OEBPS/images/'))).toHaveLength(2);
      const chapters = Object.entries(files)
        .filter(([name]) => /chapter-\d+\.xhtml$/.test(name))
        .map(([, bytes]) => strFromU8(bytes))
        .join('');
      expect(chapters.match(/epub:type="footnote"/g)).toHaveLength(2);

      const pdf = await compile(folderId, { ...options, format: 'pdf' }, 'fixture.pdf');
      expect((await pdfInfo(pdf))['Page size']).toMatch(/^432 x 648 pts/);
      const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
      const positions = chapterTitles.map((title) => text.indexOf(`Opening of ${title}.`));
      expect(positions.every((at) => at > 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      expect(text).toContain('Source 1.');

      const docx = await compile(folderId, { ...options, format: 'docx' }, 'fixture.docx');
      // A private profile: a concurrent LibreOffice (another test, a desktop) must not share its lock.
      const profile = `-env:UserInstallation=file://${path.join(work, 'profile')}`;
      await run(
        SOFFICE,
        [profile, '--headless', '--convert-to', 'pdf', '--outdir', path.join(work, 'word'), docx],
        {
          timeout: TOOLS_TIMEOUT_MS,
        },
      );
      const wordPdf = path.join(work, 'word', 'fixture.pdf');
      expect((await pdfInfo(wordPdf))['Page size']).toMatch(/^432 x 648 pts/);
      const wordText = (await pdfText(wordPdf)).replace(/\s+/g, ' ');
      const wordPositions = chapterTitles.map((title) => wordText.indexOf(`Opening of ${title}.`));
      expect(wordPositions.every((at) => at > 0)).toBe(true);
      expect([...wordPositions].sort((a, b) => a - b)).toEqual(wordPositions);
    },
    TOOLS_TIMEOUT_MS,
  );
});
