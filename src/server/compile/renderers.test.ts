import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { bookOptionsSchema, type BookOptionsInput } from '../../shared/schemas/compile';
import type { RichTextNode } from '../../shared/schemas/richText';
import { testPng } from '../images/testing';
import type { BookImage } from './assets';
import { assembleBook, bookOutline, type BookSource } from './book';
import { epubcheck, pdfInfo, pdfText } from './book-tools';
import { renderDocx } from './docx';
import { renderEpub } from './epub';
import { renderPdf } from './pdf';

const run = promisify(execFile);
/** EPUBCheck (Java) and LibreOffice start slowly on a busy two-core machine. */
const TOOL_TIMEOUT_MS = 180_000;
const SOFFICE = process.env.SOFFICE_PATH ?? '/usr/bin/soffice';
const work = mkdtempSync(path.join(os.tmpdir(), 'qw-compile-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const IMAGE_SRC =
  '/api/documents/11111111-1111-4111-8111-111111111111/images/22222222-2222-4222-8222-222222222222';
const HOSTILE = '<script>alert("x")</script> & \u0000\u0007\u001b[31m \uFFFE ]]> <![CDATA[ & amp;';

const text = (value: string, marks?: RichTextNode['marks']): RichTextNode => ({
  type: 'text',
  text: value,
  ...(marks ? { marks } : {}),
});
const paragraph = (...content: RichTextNode[]): RichTextNode => ({ type: 'paragraph', content });
const h1 = (value: string): RichTextNode => ({
  type: 'heading',
  attrs: { level: 1 },
  content: [text(value)],
});

/** One document, three chapters, an intro, a scene break, an image, a list, a table and hostile text. */
const DOCUMENT: BookSource = {
  kind: 'document',
  title: `The Mill ${HOSTILE}`,
  content: {
    type: 'doc',
    content: [
      paragraph(text('Before the first chapter.')),
      h1('Spring Floods'),
      paragraph(text('The river rose '), text('overnight', [{ type: 'italic' }]), text('.')),
      { type: 'horizontalRule' },
      paragraph(
        text(`Hostile: ${HOSTILE}`, [{ type: 'link', attrs: { href: 'https://example.com/?a=1&b=2' } }]),
      ),
      { type: 'image', attrs: { src: IMAGE_SRC, alt: `A map ${HOSTILE}`, width: 50 } },
      h1(`Ledgers ${HOSTILE}`),
      { type: 'heading', attrs: { level: 2 }, content: [text('Accounts')] },
      {
        type: 'bulletList',
        content: [{ type: 'listItem', content: [paragraph(text('Flour, twelve sacks'))] }],
      },
      {
        type: 'table',
        content: [
          {
            type: 'tableRow',
            content: [
              { type: 'tableHeader', content: [paragraph(text('Month'))] },
              { type: 'tableHeader', content: [paragraph(text('Sacks'))] },
            ],
          },
          {
            type: 'tableRow',
            content: [
              { type: 'tableCell', content: [paragraph(text('March'))] },
              { type: 'tableCell', content: [paragraph(text('12'))] },
            ],
          },
        ],
      },
      h1('Thaw'),
      paragraph(text('The last chapter ends here.')),
    ],
  },
};

async function image(): Promise<BookImage> {
  const bytes = await testPng(40, 20);
  return {
    src: IMAGE_SRC,
    name: '22222222-2222-4222-8222-222222222222.png',
    mime: 'image/png',
    width: 40,
    height: 20,
    bytes: new Uint8Array(bytes),
  };
}

function book(options: BookOptionsInput = {}, source: BookSource = DOCUMENT) {
  return assembleBook(source, bookOptionsSchema.parse({ author: 'Ada Lovelace', ...options }), '');
}

describe('a book from one document', () => {
  it('opens a chapter at each level-1 heading, the text before them its intro', () => {
    expect(bookOutline(DOCUMENT).chapters.map((chapter) => chapter.id)).toEqual(['intro', 'h1', 'h2', 'h3']);
    const numbered = book({ chapterNumbering: 'words', exclude: ['h2'] });
    expect(numbered.chapters.map((chapter) => [chapter.role, chapter.label, chapter.title])).toEqual([
      ['front', '', 'Introduction'],
      ['chapter', 'Chapter One', 'Spring Floods'],
      ['chapter', 'Chapter Two', 'Thaw'],
    ]);
    expect(book({ chapterNumbering: 'roman' }).chapters.at(-1)!.label).toBe('III');
    expect(book({ chapterNumbering: 'number' }).chapters.at(-1)!.label).toBe('Chapter 3');
  });

  it('puts front and back matter of a folder around its numbered chapters', () => {
    const folder: BookSource = {
      kind: 'folder',
      title: 'Stories',
      documents: ['Thanks', 'One', 'Dedication', 'Two'].map((title) => ({
        id: title,
        title,
        content: { type: 'doc', content: [paragraph(text(`${title} text`)), h1('Inner')] },
      })),
    };
    const assembled = book(
      { frontMatter: ['Dedication'], backMatter: ['Thanks'], chapterNumbering: 'number' },
      folder,
    );
    expect(assembled.chapters.map((chapter) => `${chapter.label}|${chapter.title}`)).toEqual([
      '|Dedication',
      'Chapter 1|One',
      'Chapter 2|Two',
      '|Thanks',
    ]);
    // A chapter document's own level-1 headings sit one level below the chapter's title.
    expect(assembled.chapters[1]!.blocks[1]!.attrs?.level).toBe(2);
  });
});

describe('EPUB', () => {
  it(
    'passes EPUBCheck with no error and no warning, hostile text escaped, the image embedded',
    async () => {
      const bytes = renderEpub(
        book({ chapterNumbering: 'words', sceneBreak: 'ornament', copyright: `© 2026 ${HOSTILE}` }),
        [await image()],
      );
      const file = path.join(work, 'book.epub');
      writeFileSync(file, bytes);
      const result = await epubcheck(file);
      expect(result, result.report).toMatchObject({ fatals: 0, errors: 0, warnings: 0 });
      const files = unzipSync(bytes);
      expect(Object.keys(files)[0]).toBe('mimetype');
      const nav = strFromU8(files['OEBPS/nav.xhtml']!);
      const order = [
        'Introduction',
        'Chapter One: Spring Floods',
        'Chapter Two: Ledgers',
        'Chapter Three: Thaw',
      ].map((title) => nav.indexOf(title));
      expect(order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
      const chapter = strFromU8(files['OEBPS/chapter-002.xhtml']!);
      expect(chapter).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;');
      expect(chapter).not.toContain('<script');
      for (const control of ['\u0000', '\u0007', '\u001b']) expect(chapter).not.toContain(control);
      expect(chapter).toContain('<p class="scene-break">❦</p>');
      expect(chapter).toContain('<img src="images/22222222-2222-4222-8222-222222222222.png"');
      expect(files['OEBPS/images/22222222-2222-4222-8222-222222222222.png']!.length).toBeGreaterThan(50);
      const opf = strFromU8(files['OEBPS/content.opf']!);
      expect(opf).toMatch(/<dc:identifier id="book-id">urn:uuid:[0-9a-f-]{36}<\/dc:identifier>/);
      expect(opf).toContain('<dc:creator id="creator">Ada Lovelace</dc:creator>');
      expect(opf).toMatch(/<meta property="dcterms:modified">\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ<\/meta>/);
    },
    TOOL_TIMEOUT_MS,
  );

  it(
    'passes EPUBCheck without title page, copyright page or contents, in another language',
    async () => {
      const bytes = renderEpub(
        book({ titlePage: false, copyrightPage: false, tableOfContents: false, language: 'fr', author: '' }),
        [],
      );
      const file = path.join(work, 'plain.epub');
      writeFileSync(file, bytes);
      const result = await epubcheck(file);
      expect(result, result.report).toMatchObject({ fatals: 0, errors: 0, warnings: 0 });
      expect(strFromU8(unzipSync(bytes)['OEBPS/content.opf']!)).toContain('<dc:language>fr</dc:language>');
    },
    TOOL_TIMEOUT_MS,
  );
});

describe('PDF', () => {
  it('sets every chapter in order on the chosen trim, with a contents page', async () => {
    const file = path.join(work, 'book.pdf');
    writeFileSync(file, await renderPdf(book({ trim: '6x9', chapterNumbering: 'number' }), [await image()]));
    const info = await pdfInfo(file);
    expect(info['Page size']).toMatch(/^432 x 648 pts/);
    expect(info.Title).toContain('The Mill');
    const body = await pdfText(file);
    const at = [
      'Contents',
      'Spring Floods',
      'The river rose',
      'Ledgers',
      'Flour, twelve sacks',
      'Thaw',
      'The last chapter ends here.',
    ].map((needle) => body.lastIndexOf(needle));
    expect(
      at.every((position, i) => position >= 0 && (i === 0 || position > at[i - 1]!)),
      body,
    ).toBe(true);
    // Running head (the title, upper case) on a chapter's second page, never on its opener.
    expect(body).toContain('<script>alert("x")</script>');
  });

  it('takes each trim size in points', async () => {
    for (const [trim, size] of [
      ['a5', '419.53 x 595.28'],
      ['letter', '612 x 792'],
    ] as const) {
      const file = path.join(work, `${trim}.pdf`);
      writeFileSync(file, await renderPdf(book({ trim }), []));
      expect((await pdfInfo(file))['Page size']).toContain(size);
    }
  });
});

describe('manuscript', () => {
  it(
    'Word: Letter, running header "Surname / TITLE / page" from page 2, word count, "#" breaks',
    async () => {
      const docx = path.join(work, 'manuscript.docx');
      writeFileSync(
        docx,
        await renderDocx(book({ style: 'manuscript', title: 'The Mill', contact: 'ada@example.com' })),
      );
      // A private profile: a concurrent LibreOffice (another test, a desktop) must not share its lock.
      const profile = `-env:UserInstallation=file://${path.join(work, 'profile')}`;
      await run(SOFFICE, [profile, '--headless', '--convert-to', 'pdf', '--outdir', work, docx], {
        timeout: 120_000,
      });
      const pdf = path.join(work, 'manuscript.pdf');
      expect((await pdfInfo(pdf))['Page size']).toMatch(/^612 x 792 pts/);
      const pages = (await pdfText(pdf)).split('\f');
      expect(pages[0]).toContain('ada@example.com');
      expect(pages[0]).toContain('about 100 words');
      expect(pages[0]).not.toContain('Lovelace / THE MILL /');
      expect(pages[1]).toContain('Lovelace / THE MILL / 2');
      expect(pages.join('')).toMatch(/^#$/m);
    },
    TOOL_TIMEOUT_MS,
  );

  it('PDF: the same header from page 2 and none on the title page', async () => {
    const file = path.join(work, 'manuscript-set.pdf');
    writeFileSync(
      file,
      await renderPdf(book({ style: 'manuscript', title: 'The Mill', trim: 'letter' }), []),
    );
    const pages = (await pdfText(file)).split('\f');
    expect(pages[0]).toContain('THE MILL');
    expect(pages[0]).not.toContain('Lovelace / THE MILL /');
    expect(pages[1]).toContain('Lovelace / THE MILL / 2');
  });
});

const ref = (id: string): RichTextNode => ({ type: 'footnoteReference', attrs: { id } });
const note = (id: string, value: string): RichTextNode => ({
  type: 'footnote',
  attrs: { id },
  content: [paragraph(text(value))],
});

/** Two chapters with notes in each: the notes list at the document's end, as the editor stores it. */
const NOTED: BookSource = {
  kind: 'document',
  title: 'Notes from the Mill',
  content: {
    type: 'doc',
    content: [
      h1('Spring Floods'),
      paragraph(text('The river rose'), ref('fnA'), text(' overnight.')),
      paragraph(text('The mill wheel stopped'), ref('fnB'), text('.')),
      h1('Dry Summer'),
      paragraph(text('The river fell'), ref('fnC'), text('.')),
      {
        type: 'footnotes',
        content: [
          note('fnA', 'Parish records, 1841.'),
          note('fnB', 'The miller’s ledger.'),
          note('fnC', `Hostile note ${HOSTILE}`),
        ],
      },
    ],
  },
};

describe('footnotes', () => {
  it('numbers each chapter’s notes from 1, in the order their references are read', () => {
    const assembled = book({}, NOTED);
    expect(
      assembled.chapters.map((chapter) => chapter.notes.map((n) => [n.number, n.id, n.blocks.length])),
    ).toEqual([
      [
        [1, 'fnA', 1],
        [2, 'fnB', 1],
      ],
      [[1, 'fnC', 1]],
    ]);
    // The notes list is not text of the last chapter.
    expect(assembled.chapters[1]!.blocks.map((block) => block.type)).toEqual(['paragraph']);
    // The notes' words count, as in the editor; the numbers are not words.
    const [first, second] = bookOutline(NOTED).chapters.map((chapter) => chapter.words);
    expect(first).toBe(14);
    expect(second).toBeGreaterThan(5);
  });

  it(
    'EPUB: noterefs and footnote asides at the end of each chapter file, EPUBCheck clean',
    async () => {
      const bytes = renderEpub(book({}, NOTED), []);
      const file = path.join(work, 'notes.epub');
      writeFileSync(file, bytes);
      const result = await epubcheck(file);
      expect(result, result.report).toMatchObject({ fatals: 0, errors: 0, warnings: 0 });
      const files = unzipSync(bytes);
      const first = strFromU8(files['OEBPS/chapter-001.xhtml']!);
      expect(first).toContain(
        'The river rose<sup><a class="noteref" epub:type="noteref" href="#fn-1" id="fnref-1">1</a></sup> overnight.',
      );
      expect(first).toContain('href="#fn-2" id="fnref-2">2</a>');
      expect(first).toMatch(
        /<aside class="footnote" epub:type="footnote" id="fn-1"><p><a href="#fnref-1" role="doc-backlink">1\.<\/a> Parish records, 1841\.<\/p><\/aside>/,
      );
      expect(first.indexOf('id="fn-2"')).toBeGreaterThan(first.indexOf('id="fn-1"'));
      expect(first).not.toContain('Hostile note');
      const second = strFromU8(files['OEBPS/chapter-002.xhtml']!);
      expect(second).toContain('href="#fn-1" id="fnref-1">1</a>');
      expect(second).toContain(
        'id="fn-1"><p><a href="#fnref-1" role="doc-backlink">1.</a> Hostile note &lt;script&gt;',
      );
      expect(second).not.toContain('fn-2');
    },
    TOOL_TIMEOUT_MS,
  );

  it('PDF: superscript numbers, and each chapter’s notes under "Notes" at its end', async () => {
    const file = path.join(work, 'notes.pdf');
    writeFileSync(file, await renderPdf(book({ tableOfContents: false }, NOTED), []));
    const body = (await pdfText(file)).replace(/\s+/g, ' ');
    const at = [
      'The river rose1 overnight.',
      'The mill wheel stopped2.',
      'Notes 1. Parish records, 1841. 2. The miller’s ledger.',
      'Dry Summer',
      'The river fell1.',
      'Notes 1. Hostile note <script>',
    ].map((needle) => body.indexOf(needle));
    expect(
      at.every((position, i) => position >= 0 && (i === 0 || position > at[i - 1]!)),
      body,
    ).toBe(true);
  });

  it('Word: the book embeds its pictures with their stored bytes, sized to the text column', async () => {
    const picture = await image();
    const files = unzipSync(await renderDocx(book({}), [picture]));
    const media = Object.keys(files).filter((name) => name.startsWith('word/media/'));
    expect(media).toHaveLength(1);
    expect(Buffer.from(files[media[0]!]!).equals(Buffer.from(picture.bytes))).toBe(true);
    // 40 px wide at a 50% width setting: never wider than the picture itself (40 px = 381,000 EMU).
    expect(strFromU8(files['word/document.xml']!)).toContain('cx="381000"');
  });

  it(
    'Word: real footnotes, numbered from 1 in each chapter (a section each), read by LibreOffice',
    async () => {
      const bytes = await renderDocx(book({}, NOTED));
      const files = unzipSync(bytes);
      const notes = strFromU8(files['word/footnotes.xml']!);
      for (const needle of ['Parish records, 1841.', 'The miller’s ledger.', 'Hostile note &lt;script&gt;'])
        expect(notes).toContain(needle);
      const documentXml = strFromU8(files['word/document.xml']!);
      expect(documentXml.match(/<w:footnoteReference w:id="\d+"\/>/g)).toHaveLength(3);
      expect(documentXml.match(/<w:numRestart w:val="eachSect"\/>/g)?.length).toBeGreaterThanOrEqual(2);
      const docx = path.join(work, 'notes.docx');
      writeFileSync(docx, bytes);
      const profile = `-env:UserInstallation=file://${path.join(work, 'profile')}`;
      await run(SOFFICE, [profile, '--headless', '--convert-to', 'fodt', '--outdir', work, docx], {
        timeout: 120_000,
      });
      const fodt = readFileSync(path.join(work, 'notes.fodt'), 'utf8');
      const footnotes = [
        ...fodt.matchAll(/<text:note [^>]*text:note-class="footnote"[\s\S]*?<\/text:note>/g),
      ];
      expect(footnotes.map((match) => /Parish|miller|Hostile/.exec(match[0])?.[0])).toEqual([
        'Parish',
        'miller',
        'Hostile',
      ]);
      expect(fodt).toMatch(/The river rose<text:note /);
    },
    TOOL_TIMEOUT_MS,
  );
});

describe('Word contents', () => {
  it(
    'is a TOC field over the chapter titles that Word updates on opening; LibreOffice shows its entries',
    async () => {
      const bytes = await renderDocx(book({ chapterNumbering: 'words' }, NOTED));
      const files = unzipSync(bytes);
      expect(strFromU8(files['word/settings.xml']!)).toMatch(
        /<w:updateFields\/>|<w:updateFields w:val="true"\/>/,
      );
      const documentXml = strFromU8(files['word/document.xml']!);
      expect(documentXml).toContain('TOC \\h \\o &quot;1-1&quot;');
      expect(documentXml.match(/PAGEREF _Toc\d+ \\h/g)).toHaveLength(2);
      const docx = path.join(work, 'contents.docx');
      writeFileSync(docx, bytes);
      const profile = `-env:UserInstallation=file://${path.join(work, 'profile')}`;
      await run(SOFFICE, [profile, '--headless', '--convert-to', 'pdf', '--outdir', work, docx], {
        timeout: 120_000,
      });
      const pages = (await pdfText(path.join(work, 'contents.pdf'))).split('\f');
      const contents = pages.find((page) => page.startsWith('Contents'));
      expect(contents, pages.join('\f')).toMatch(/Spring Floods\.+\s*\n?Dry Summer\.+/);
      // The chapters themselves open on later pages, each as its own section.
      expect(pages.findIndex((page) => page.includes('Spring Floods\nThe river rose'))).toBeGreaterThan(
        pages.indexOf(contents!),
      );
    },
    TOOL_TIMEOUT_MS,
  );
});
