import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import type { Content, ContentText, TDocumentDefinitions } from 'pdfmake/interfaces';
import { tableGrid } from '../../shared/editor/table-grid';
import { sanitizeHref, type RichTextNode } from '../../shared/schemas/richText';
import type { TrimSize } from '../../shared/schemas/compile';
import type { BookImage } from './assets';
import { SCENE_BREAK_TEXT, noteNumbers, type Book, type Chapter } from './book';
import { installLineGrouping } from './pdf-lines';
import { contactLines, manuscriptHeader, roundedWordCount } from './manuscript';

/**
 * The PDF, laid out on the server with pdfmake: Literata embedded (subset), the chosen trim size, a title
 * page, a copyright page, a table of contents with page numbers, each chapter on a new page, running heads
 * (author on even pages, title on odd ones) and page numbers except on chapter openers. The manuscript style
 * is the same book set as standard manuscript format: US Letter or the chosen size, one-inch margins,
 * double-spaced, "Surname / TITLE / page" at the top right from page 2, chapters a third of the way down.
 */

const require = createRequire(import.meta.url);
// pdfmake is CommonJS; loaded here (a worker thread) rather than at the server's start.
const pdfmake = require('pdfmake') as PdfMake;
installLineGrouping(require);

/** pdfmake 0.3's server API (its @types describe 0.2, without the virtual file system and access policies). */
interface PdfMake {
  virtualfs: { writeFileSync(name: string, content: Buffer): void };
  setFonts(fonts: Record<string, Record<'normal' | 'bold' | 'italics' | 'bolditalics', string>>): void;
  setUrlAccessPolicy(allow: (url: string) => boolean): void;
  setLocalAccessPolicy(allow: (path: string) => boolean): void;
  createPdf(definition: TDocumentDefinitions, options?: object): { getBuffer(): Promise<Buffer> };
}

const POINTS_PER_INCH = 72;
/** Width × height in PostScript points. */
const TRIM_POINTS: Record<TrimSize, [number, number]> = {
  '6x9': [432, 648],
  '5.5x8.5': [396, 612],
  a5: [419.53, 595.28],
  letter: [612, 792],
  a4: [595.28, 841.89],
};

/** Literata's Latin subset, as @fontsource ships it (WOFF, which pdfkit reads). */
const FONT_FILES = {
  normal: 'literata-latin-400-normal.woff',
  bold: 'literata-latin-700-normal.woff',
  italics: 'literata-latin-400-italic.woff',
  bolditalics: 'literata-latin-700-italic.woff',
};

/**
 * A WOFF font as the plain TrueType font it wraps (its tables inflated, the directory rewritten). pdfkit reads
 * WOFF too, but inflates a table again each time it opens it (the glyph outlines for every new glyph's
 * metrics) in every PDF; unwrapped once here, each PDF reads the tables as they are.
 */
function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) return woff; // not 'wOFF'
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 44 + i * 20;
    const offset = woff.readUInt32BE(at + 4);
    const compressed = woff.readUInt32BE(at + 8);
    const length = woff.readUInt32BE(at + 12);
    const stored = woff.subarray(offset, offset + compressed);
    return {
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: compressed < length ? inflateSync(stored) : stored,
    };
  });
  const power = 2 ** Math.floor(Math.log2(count));
  const header = Buffer.alloc(12 + 16 * count);
  header.writeUInt32BE(woff.readUInt32BE(4), 0); // the wrapped font's flavour
  header.writeUInt16BE(count, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(count * 16 - power * 16, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, i) => {
    header.writeUInt32BE(table.tag, 12 + i * 16);
    header.writeUInt32BE(table.checksum, 16 + i * 16);
    header.writeUInt32BE(offset, 20 + i * 16);
    header.writeUInt32BE(table.data.length, 24 + i * 16);
    const padded = Buffer.alloc((table.data.length + 3) & ~3);
    table.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

let fontsReady = false;
function loadFonts(): void {
  if (fontsReady) return;
  for (const file of Object.values(FONT_FILES)) {
    const path = require.resolve(`@fontsource/literata/files/${file}`);
    pdfmake.virtualfs.writeFileSync(file, woffToSfnt(readFileSync(path)));
  }
  pdfmake.setFonts({ Literata: FONT_FILES });
  // The document definition is built here from the writer's text: nothing in it may reach a URL or a file.
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy(() => false);
  fontsReady = true;
}

/** A fleuron for the ornament scene break: Literata's Latin subset has no ❦. */
const ORNAMENT_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20" width="40" height="20"><path d="M20 18 C12 12 4 10 6 4 C8 0 14 1 20 7 C26 1 32 0 34 4 C36 10 28 12 20 18 Z" fill="#333"/></svg>';

interface Layout {
  fontSize: number;
  lineHeight: number;
  indent: number;
  manuscript: boolean;
  contentWidth: number;
  contentHeight: number;
  images: Map<string, BookImage>;
  sceneBreak: Book['options']['sceneBreak'];
  /** The current chapter's note numbers by reference id, and its index (destinations are per chapter). */
  notes: Map<string, number>;
  chapter: number;
}

type Run = ContentText;

/** The named destination of a chapter's note, which its superscript number links to. */
const noteDestination = (layout: Layout, number: number) => `note-${layout.chapter}-${number}`;

function runs(nodes: RichTextNode[] | undefined, layout: Layout): (Run | string)[] {
  const out: (Run | string)[] = [];
  for (const node of nodes ?? []) {
    if (node.type === 'hardBreak') {
      out.push('\n');
      continue;
    }
    if (node.type === 'footnoteReference') {
      const number = layout.notes.get(String(node.attrs?.id));
      if (number !== undefined)
        out.push({
          text: String(number),
          sup: true,
          linkToDestination: noteDestination(layout, number),
        } as Run);
      continue;
    }
    if (node.type !== 'text' || !node.text) continue;
    const run: Run = { text: node.text };
    const decorations: ('underline' | 'lineThrough')[] = [];
    for (const mark of node.marks ?? []) {
      if (mark.type === 'bold') run.bold = true;
      if (mark.type === 'italic') run.italics = true;
      if (mark.type === 'underline') decorations.push('underline');
      if (mark.type === 'strike') decorations.push('lineThrough');
      if (mark.type === 'subscript') run.sub = true;
      if (mark.type === 'superscript') run.sup = true;
      if (mark.type === 'highlight') run.background = '#fff3a3';
      if (mark.type === 'link') {
        const href = typeof mark.attrs?.href === 'string' ? sanitizeHref(mark.attrs.href) : '';
        if (/^(https?:|mailto:)/i.test(href)) run.link = href;
      }
    }
    if (decorations.length === 1) run.decoration = decorations[0];
    out.push(run);
  }
  return out;
}

const ALIGN = { left: 'left', center: 'center', right: 'right', justify: 'justify' } as const;

function alignOf(node: RichTextNode, fallback: 'justify' | 'left') {
  const align = node.attrs?.textAlign;
  return typeof align === 'string' && align in ALIGN ? ALIGN[align as keyof typeof ALIGN] : fallback;
}

function sceneBreak(layout: Layout): Content {
  if (layout.sceneBreak === 'ornament')
    return { svg: ORNAMENT_SVG, width: 24, alignment: 'center', margin: [0, 6, 0, 6] };
  return {
    text: SCENE_BREAK_TEXT[layout.sceneBreak],
    alignment: 'center',
    margin: [0, layout.fontSize * 0.5, 0, layout.fontSize * 0.5],
  };
}

function blocks(nodes: RichTextNode[] | undefined, layout: Layout): Content[] {
  const out: Content[] = [];
  // The first paragraph of a chapter, and after a scene break or heading, is set flush left.
  let flush = true;
  for (const node of nodes ?? []) {
    const content = block(node, layout, flush);
    flush = node.type !== 'paragraph' && node.type !== 'bulletList' && node.type !== 'orderedList';
    if (layout.manuscript) flush = false;
    if (content) out.push(content);
  }
  return out;
}

function block(node: RichTextNode, layout: Layout, flush: boolean): Content | null {
  switch (node.type) {
    case 'paragraph': {
      const text = runs(node.content, layout);
      return {
        text: text.length > 0 ? text : ' ',
        alignment: alignOf(node, layout.manuscript ? 'left' : 'justify'),
        leadingIndent: flush ? 0 : layout.indent,
        margin: layout.manuscript ? [0, 0, 0, 0] : [0, 0, 0, 0],
      };
    }
    case 'heading': {
      const level = Number(node.attrs?.level) >= 3 ? 3 : 2;
      return {
        text: runs(node.content, layout),
        style: `h${level}`,
        alignment: alignOf(node, 'left'),
        headlineLevel: 1,
      };
    }
    case 'blockquote':
      return {
        stack: blocks(node.content, layout),
        margin: [layout.indent, 4, layout.indent, 4],
        italics: true,
      };
    case 'codeBlock':
      return {
        text: (node.content ?? []).map((t) => t.text ?? '').join(''),
        fontSize: layout.fontSize * 0.8,
        preserveLeadingSpaces: true,
        margin: [0, 4, 0, 4],
      };
    case 'horizontalRule':
      return sceneBreak(layout);
    case 'image': {
      const image = typeof node.attrs?.src === 'string' ? layout.images.get(node.attrs.src) : undefined;
      if (!image) {
        const alt = typeof node.attrs?.alt === 'string' ? node.attrs.alt : '';
        return alt ? { text: `[${alt}]`, alignment: 'center', italics: true } : null;
      }
      const share = Number(node.attrs?.width) > 0 ? Math.min(100, Number(node.attrs?.width)) / 100 : 1;
      return {
        image: image.name,
        fit: [layout.contentWidth * share, layout.contentHeight * 0.6],
        alignment: 'center',
        margin: [0, 6, 0, 6],
      };
    }
    case 'bulletList':
    case 'taskList':
      return {
        ul: (node.content ?? []).map((item) => ({
          stack: blocks(item.content, layout),
          ...(node.type === 'taskList' ? { listType: 'none' as const } : {}),
        })),
        margin: [0, 2, 0, 2],
      };
    case 'orderedList':
      return {
        ol: (node.content ?? []).map((item) => ({ stack: blocks(item.content, layout) })),
        start: Math.max(1, Number(node.attrs?.start) || 1),
        margin: [0, 2, 0, 2],
      };
    case 'table': {
      const grid = tableGrid(node);
      if (grid.length === 0 || grid[0]!.length === 0) return null;
      return {
        table: {
          headerRows:
            grid.length > 1 && (node.content?.[0]?.content ?? []).every((c) => c.type === 'tableHeader')
              ? 1
              : 0,
          widths: grid[0]!.map(() => '*'),
          body: grid.map((row) =>
            row.map((cell) =>
              cell
                ? {
                    stack: blocks(cell.content, layout),
                    colSpan: Math.max(1, Number(cell.attrs?.colspan) || 1),
                    rowSpan: Math.max(1, Number(cell.attrs?.rowspan) || 1),
                    bold: cell.type === 'tableHeader',
                  }
                : '',
            ),
          ),
        },
        fontSize: layout.fontSize * 0.9,
        margin: [0, 6, 0, 6],
      };
    }
    default:
      return null;
  }
}

/**
 * A chapter's notes, after its text under a "Notes" heading (pdfmake cannot set notes at the foot of the
 * page): smaller type, each paragraph flush left, the first opening with the note's number.
 */
function chapterNotes(chapter: Chapter, layout: Layout): Content[] {
  if (chapter.notes.length === 0) return [];
  const size = layout.fontSize * 0.85;
  return [
    { text: 'Notes', style: 'h2', margin: [0, layout.fontSize * 2, 0, layout.fontSize / 2] },
    ...chapter.notes.map(
      (note) =>
        ({
          stack: (note.blocks.length > 0 ? note.blocks : [{ type: 'paragraph' }]).map((paragraph, index) => ({
            text: [...(index === 0 ? [`${note.number}. `] : []), ...runs(paragraph.content, layout)],
            alignment: 'left' as const,
          })),
          id: noteDestination(layout, note.number),
          fontSize: size,
          margin: [0, 0, 0, size / 2],
        }) as Content,
    ),
  ];
}

export async function renderPdf(book: Book, images: BookImage[], now = new Date()): Promise<Uint8Array> {
  loadFonts();
  const { meta, options } = book;
  const manuscript = options.style === 'manuscript';
  const [width, height] = TRIM_POINTS[options.trim];
  const small = width < 500;
  const side = manuscript ? POINTS_PER_INCH : small ? 54 : 72;
  const top = manuscript ? POINTS_PER_INCH : small ? 60 : 72;
  const margins: [number, number, number, number] = [side, top, side, top];
  const fontSize = manuscript ? 12 : small ? 10.5 : 11.5;
  const layout: Layout = {
    fontSize,
    lineHeight: manuscript ? 2 : 1.35,
    indent: manuscript ? POINTS_PER_INCH / 2 : fontSize * 1.5,
    manuscript,
    contentWidth: width - 2 * side,
    contentHeight: height - 2 * top,
    images: new Map(images.map((image) => [image.src, image])),
    sceneBreak: manuscript ? 'hash' : options.sceneBreak,
    notes: new Map(),
    chapter: 0,
  };

  const front: Content[] = [];
  if (manuscript) {
    front.push({
      columns: [
        { stack: contactLines(meta).map((line) => ({ text: line })), lineHeight: 1 },
        { text: roundedWordCount(book.words), alignment: 'right', width: 'auto' },
      ],
    });
    front.push({
      stack: [
        { text: meta.title.toUpperCase(), alignment: 'center' },
        ...(meta.author
          ? [
              {
                text: `by ${meta.author}`,
                alignment: 'center' as const,
                margin: [0, 12, 0, 0] as [number, number, number, number],
              },
            ]
          : []),
      ],
      margin: [0, layout.contentHeight / 3, 0, 0],
    });
  } else {
    if (options.titlePage) {
      front.push({ text: meta.title, style: 'bookTitle', margin: [0, layout.contentHeight / 4, 0, 24] });
      if (meta.author) front.push({ text: meta.author, style: 'bookAuthor' });
    }
    if (options.copyrightPage) {
      const line =
        meta.copyright || (meta.author ? `Copyright © ${now.getUTCFullYear()} ${meta.author}` : '');
      front.push({
        stack: [line, 'All rights reserved.']
          .filter(Boolean)
          .map((text) => ({ text, fontSize: fontSize * 0.85 })),
        margin: [0, layout.contentHeight * 0.6, 0, 0],
        ...(front.length > 0 ? { pageBreak: 'before' as const } : {}),
      });
    }
    if (options.tableOfContents && book.chapters.length > 0) {
      front.push({
        toc: { title: { text: 'Contents', style: 'tocTitle' }, numberStyle: { fontSize } },
        ...(front.length > 0 ? { pageBreak: 'before' as const } : {}),
      });
    }
  }

  /** Each chapter's heading node: pdfmake records on it the page it landed on, for the running heads. */
  const openers: ContentText[] = [];
  const body: Content[] = book.chapters.map((chapter: Chapter, index) => {
    // tocItem: pdfmake 0.3 lists the node in the table of contents (its @types do not know it).
    const title = { text: chapter.title, style: 'chapterTitle', tocItem: !manuscript } as ContentText;
    openers.push(title);
    const label: Content[] = chapter.label ? [{ text: chapter.label, style: 'chapterLabel' }] : [];
    layout.notes = noteNumbers(chapter);
    layout.chapter = index;
    return {
      stack: [...label, title, ...blocks(chapter.blocks, layout), ...chapterNotes(chapter, layout)],
      ...(front.length > 0 || index > 0 ? { pageBreak: 'before' as const } : {}),
    };
  });
  const openerTop = manuscript ? layout.contentHeight / 3 : layout.contentHeight / 6;
  for (const opener of openers) opener.margin = [0, 0, 0, manuscript ? fontSize * 2 : fontSize * 2.5];
  body.forEach((chapter) => {
    (chapter as { margin?: number[] }).margin = [0, openerTop, 0, 0];
  });

  const pageOf = (node: ContentText) =>
    (node as { positions?: { pageNumber: number }[] }).positions?.[0]?.pageNumber ?? 0;
  const firstBodyPage = () => (openers[0] ? pageOf(openers[0]) : Number.POSITIVE_INFINITY);
  const isOpener = (page: number) => openers.some((node) => pageOf(node) === page);
  const runningHead = manuscriptHeader(meta);

  const definition: TDocumentDefinitions = {
    pageSize: { width, height },
    pageMargins: margins,
    info: { title: meta.title, author: meta.author, creator: 'Quillwright', producer: 'Quillwright' },
    language: meta.language,
    defaultStyle: { font: 'Literata', fontSize, lineHeight: layout.lineHeight },
    styles: {
      bookTitle: { fontSize: fontSize * 2.2, alignment: 'center', lineHeight: 1.15 },
      bookAuthor: { fontSize: fontSize * 1.3, alignment: 'center' },
      tocTitle: { fontSize: fontSize * 1.5, alignment: 'center', margin: [0, 0, 0, fontSize * 2] },
      chapterLabel: {
        fontSize: manuscript ? fontSize : fontSize * 0.9,
        alignment: 'center',
        characterSpacing: manuscript ? 0 : 1.5,
        margin: [0, 0, 0, 6],
      },
      chapterTitle: {
        fontSize: manuscript ? fontSize : fontSize * 1.6,
        alignment: 'center',
        lineHeight: 1.2,
      },
      h2: {
        fontSize: manuscript ? fontSize : fontSize * 1.25,
        bold: true,
        margin: [0, fontSize, 0, fontSize / 2],
      },
      h3: {
        fontSize: manuscript ? fontSize : fontSize * 1.1,
        bold: true,
        margin: [0, fontSize, 0, fontSize / 2],
      },
    },
    images: Object.fromEntries(
      images.map((image) => [
        image.name,
        `data:${image.mime};base64,${Buffer.from(image.bytes).toString('base64')}`,
      ]),
    ),
    header: (page) => {
      if (manuscript) {
        if (page < 2) return null;
        return {
          text: [runningHead, String(page)],
          alignment: 'right',
          fontSize,
          lineHeight: 1,
          margin: [side, POINTS_PER_INCH / 2, side, 0],
        };
      }
      if (page < firstBodyPage() || isOpener(page)) return null;
      return {
        text: (page % 2 === 0 ? meta.author || meta.title : meta.title).toUpperCase(),
        alignment: 'center',
        fontSize: fontSize * 0.75,
        characterSpacing: 1,
        lineHeight: 1,
        margin: [side, top / 2 - fontSize / 2, side, 0],
      };
    },
    footer: (page) => {
      if (manuscript || page < firstBodyPage()) return null;
      return {
        text: String(page),
        alignment: 'center',
        fontSize: fontSize * 0.85,
        lineHeight: 1,
        margin: [side, top / 2 - fontSize, side, 0],
      };
    },
    content: [...front, ...body],
  };
  const document = pdfmake.createPdf(definition, { creationDate: now } as object);
  return new Uint8Array(await document.getBuffer());
}
