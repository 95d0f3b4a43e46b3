import {
  AlignmentType,
  Document,
  Footer,
  Header,
  HeadingLevel,
  NoteNumberRestart,
  Packer,
  PageNumber,
  Paragraph,
  SectionType,
  TableOfContents,
  TextRun,
  convertInchesToTwip,
  type ISectionOptions,
} from 'docx';
import { createDocxConverter } from '../../shared/export/docx';
import type { TrimSize } from '../../shared/schemas/compile';
import type { BookImage } from './assets';
import { SCENE_BREAK_TEXT, type Book } from './book';
import { contactLines, manuscriptHeader, roundedWordCount } from './manuscript';

/**
 * Word files of a book, through the project's one rich-text → Word conversion (shared/export/docx.ts).
 * "manuscript": standard manuscript format — Times New Roman 12 pt, double-spaced, one-inch margins on US
 * Letter, every paragraph's first line indented half an inch, a title page with the contact block and the
 * rounded word count, "Surname / TITLE / page" at the top right from page 2, each chapter on a new page a
 * third of the way down, scene breaks a centred "#". "book": the same text set as a book on the chosen trim
 * size, page numbers at the foot.
 */

const TWIPS_PER_POINT = 20;
const TRIM_TWIPS: Record<TrimSize, { width: number; height: number }> = {
  '6x9': { width: convertInchesToTwip(6), height: convertInchesToTwip(9) },
  '5.5x8.5': { width: convertInchesToTwip(5.5), height: convertInchesToTwip(8.5) },
  a5: { width: 8391, height: 11906 },
  letter: { width: 12240, height: 15840 },
  a4: { width: 11906, height: 16838 },
};
const INCH = convertInchesToTwip(1);
/** Word sizes pictures in pixels at 96 to the inch: 15 twips each. */
const TWIPS_PER_PX = 15;
/** Double spacing: Word's line rule in 240ths of a line. */
const DOUBLE = 480;
const MANUSCRIPT_FONT = 'Times New Roman';
const BOOK_FONT = 'Georgia';

function centred(text: string, options: { bold?: boolean; size?: number; before?: number } = {}) {
  return new Paragraph({
    alignment: AlignmentType.CENTER,
    indent: { firstLine: 0 },
    spacing: options.before ? { before: options.before } : {},
    children: [
      new TextRun({
        text,
        ...(options.bold ? { bold: true } : {}),
        ...(options.size ? { size: options.size } : {}),
      }),
    ],
  });
}

export async function renderDocx(
  book: Book,
  images: BookImage[] = [],
  now = new Date(),
): Promise<Uint8Array> {
  const { meta, options } = book;
  const manuscript = options.style === 'manuscript';
  const page = manuscript ? TRIM_TWIPS.letter : TRIM_TWIPS[options.trim];
  const margin = manuscript ? INCH : Math.round(INCH * 0.75);
  const textHeight = page.height - 2 * margin;
  const breakText = manuscript ? SCENE_BREAK_TEXT.hash : SCENE_BREAK_TEXT[options.sceneBreak];
  const converter = createDocxConverter({
    sceneBreak: () => centred(breakText),
    pictures: new Map(images.map((image) => [image.src, image])),
    textWidthPx: (page.width - 2 * margin) / TWIPS_PER_PX,
  });

  const front: (Paragraph | TableOfContents)[] = [];
  if (manuscript) {
    // Contact block at the top left, the word count at the top right (a right tab on the first line).
    const lines = contactLines(meta);
    lines.forEach((line, index) =>
      front.push(
        new Paragraph({
          indent: { firstLine: 0 },
          spacing: { line: 240 },
          tabStops: index === 0 ? [{ type: 'right', position: page.width - 2 * margin }] : [],
          children: [
            new TextRun(line),
            ...(index === 0 ? [new TextRun(`\t${roundedWordCount(book.words)}`)] : []),
          ],
        }),
      ),
    );
    if (lines.length === 0)
      front.push(
        new Paragraph({
          alignment: AlignmentType.RIGHT,
          children: [new TextRun(roundedWordCount(book.words))],
        }),
      );
    front.push(centred(meta.title.toUpperCase(), { before: Math.round(textHeight / 3) }));
    if (meta.author) front.push(centred(`by ${meta.author}`));
  } else {
    if (options.titlePage) {
      front.push(centred(meta.title, { size: 48, before: Math.round(textHeight / 4) }));
      if (meta.author) front.push(centred(meta.author, { size: 28, before: 240 }));
    }
    if (options.copyrightPage) {
      const line =
        meta.copyright || (meta.author ? `Copyright © ${now.getUTCFullYear()} ${meta.author}` : '');
      [line, 'All rights reserved.'].filter(Boolean).forEach((text, index) =>
        front.push(
          new Paragraph({
            indent: { firstLine: 0 },
            pageBreakBefore: index === 0 && front.length > 0,
            spacing: index === 0 ? { before: Math.round(textHeight * 0.6) } : {},
            children: [new TextRun({ text, size: 18 })],
          }),
        ),
      );
    }
    if (options.tableOfContents && book.chapters.length > 0) {
      front.push(
        new Paragraph({
          alignment: AlignmentType.CENTER,
          indent: { firstLine: 0 },
          pageBreakBefore: front.length > 0,
          spacing: { after: 480 },
          children: [new TextRun({ text: 'Contents', size: 32 })],
        }),
      );
      // A real contents field over the chapter titles (level-1 headings): written with an entry per chapter,
      // and Word fills in the page numbers when it updates the fields on opening (updateFields below).
      front.push(new TableOfContents('Contents', { hyperlink: true, headingStyleRange: '1-1' }));
    }
  }

  // Each chapter is a section of its own (starting on a new page), so Word numbers its footnotes from 1.
  const chapters = book.chapters.map((chapter) => {
    const opener = manuscript ? Math.round(textHeight / 3) : Math.round(textHeight / 6);
    const body: (Paragraph | ReturnType<typeof converter.blocks>[number])[] = [];
    if (chapter.label)
      body.push(
        new Paragraph({
          alignment: AlignmentType.CENTER,
          indent: { firstLine: 0 },
          spacing: { before: opener },
          children: [new TextRun(chapter.label)],
        }),
      );
    body.push(
      new Paragraph({
        heading: HeadingLevel.HEADING_1,
        alignment: AlignmentType.CENTER,
        indent: { firstLine: 0 },
        spacing: { before: chapter.label ? 0 : opener, after: manuscript ? 0 : 480 },
        children: [new TextRun(chapter.title)],
      }),
    );
    body.push(...converter.blocks(chapter.blocks, chapter.notes));
    return body;
  });

  const pageProperties = {
    size: page,
    margin: {
      top: margin,
      bottom: margin,
      left: margin,
      right: margin,
      header: Math.round(margin / 2),
      footer: Math.round(margin / 2),
    },
  };
  const runningHeader = () =>
    new Header({
      children: [
        new Paragraph({
          alignment: AlignmentType.RIGHT,
          indent: { firstLine: 0 },
          spacing: { line: 240 },
          children: [new TextRun(manuscriptHeader(meta)), new TextRun({ children: [PageNumber.CURRENT] })],
        }),
      ],
    });
  const pageNumberFooter = () =>
    new Footer({
      children: [
        new Paragraph({
          alignment: AlignmentType.CENTER,
          indent: { firstLine: 0 },
          children: [new TextRun({ children: [PageNumber.CURRENT] })],
        }),
      ],
    });
  /** The file's first page (the title page) has no running header and no page number. */
  const sectionOf = (children: ISectionOptions['children'], first: boolean): ISectionOptions => ({
    properties: {
      page: pageProperties,
      titlePage: first,
      ...(first ? {} : { type: SectionType.NEXT_PAGE }),
      footnoteProperties: { restart: NoteNumberRestart.EACH_SECTION },
    },
    headers: {
      default: manuscript ? runningHeader() : new Header({ children: [] }),
      ...(first ? { first: new Header({ children: [] }) } : {}),
    },
    footers: {
      default: manuscript ? new Footer({ children: [] }) : pageNumberFooter(),
      ...(first ? { first: new Footer({ children: [] }) } : {}),
    },
    children,
  });
  const sections = [...(front.length > 0 ? [front] : []), ...chapters].map((children, index) =>
    sectionOf(children, index === 0),
  );
  if (sections.length === 0) sections.push(sectionOf([new Paragraph({})], true));

  const font = manuscript ? MANUSCRIPT_FONT : BOOK_FONT;
  const size = manuscript ? 24 : 22;
  const converted = converter.styles();
  const headingRun = { font, size, bold: !manuscript, color: '000000' };
  const document = new Document({
    title: meta.title,
    creator: meta.author || 'Quillwright',
    styles: {
      default: {
        document: {
          run: { font, size },
          paragraph: manuscript
            ? { spacing: { line: DOUBLE, before: 0, after: 0 }, indent: { firstLine: INCH / 2 } }
            : {
                spacing: { line: 300, before: 0, after: 0 },
                indent: { firstLine: Math.round(size * TWIPS_PER_POINT * 0.75) },
                alignment: AlignmentType.JUSTIFIED,
              },
        },
        heading1: {
          run: { ...headingRun, size: manuscript ? size : 36, bold: false },
          paragraph: { spacing: { after: manuscript ? 0 : 480 } },
        },
        heading2: {
          run: headingRun,
          paragraph: { spacing: { before: 240, after: 120 }, indent: { firstLine: 0 } },
        },
        heading3: {
          run: { ...headingRun, italics: true },
          paragraph: { spacing: { before: 240, after: 120 }, indent: { firstLine: 0 } },
        },
      },
      ...converted,
    },
    numbering: converter.numbering(),
    footnotes: converter.footnotes(),
    features: { updateFields: true },
    sections,
  });
  return new Uint8Array(await Packer.toBuffer(document));
}
