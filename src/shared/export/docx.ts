import {
  AlignmentType,
  BorderStyle,
  Document,
  DeletedTextRun,
  ExternalHyperlink,
  FootnoteReferenceRun,
  HeadingLevel,
  ImageRun,
  InsertedTextRun,
  LevelFormat,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ICharacterStyleOptions,
  type IParagraphStyleOptions,
  type IRunOptions,
  type ParagraphChild,
} from 'docx';
import { HIGHLIGHT_COLORS } from '../constants';
import { footnoteNumbersOf } from '../editor/footnotes';
import { hasHeaderRow, tableGrid } from '../editor/table-grid';
import { sanitizeHref, type RichTextNode as RichNode } from '../schemas/richText';
import { titleAsPlainLine } from './title';
import { WORD_STYLE_NAMES } from './word-styles';

const HEADINGS = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const;
const ALIGNMENTS = {
  left: AlignmentType.LEFT,
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
  justify: AlignmentType.JUSTIFIED,
} as const;
const MONOSPACE = 'Courier New';
const BULLET_REF = 'bullet';
/** Task lists: a list without a glyph, each item opening with its box (☐ or ☒, what the importer reads back). */
const TASK_REF = 'task';
const TASK_BOXES = { checked: '☒', unchecked: '☐' } as const;
const INDENT_PER_LEVEL = 360;
/** Word's default text width (A4 or Letter with one-inch margins is about 9,000 twips); 1 px = 15 twips. */
const TABLE_WIDTH_TWIPS = 9000;
const TWIPS_PER_PX = 15;
/** The text column in CSS pixels (Word's pictures are sized in pixels at 96 to the inch). */
const TEXT_WIDTH_PX = TABLE_WIDTH_TWIPS / TWIPS_PER_PX;
/** A tall picture is scaled down to leave room on its page for its caption. */
const MAX_PICTURE_HEIGHT_PX = 800;
const PICTURE_TYPES = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif' } as const;
const PICTURE_ALIGNMENTS = {
  left: AlignmentType.LEFT,
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
} as const;
const WORD_HIGHLIGHTS = new Map<string, string>(HIGHLIGHT_COLORS.map((color) => [color.value, color.word]));

/** A picture's bytes for the Word file, in a type Word shows (others are converted before they get here). */
export interface DocxPicture {
  mime: keyof typeof PICTURE_TYPES;
  /** Intrinsic size in pixels. */
  width: number;
  height: number;
  bytes: Uint8Array;
}

/** Pictures by their `src` in the document; an image without one here is written as its alt text. */
export type DocxPictures = ReadonlyMap<string, DocxPicture>;

interface Context {
  listDepth: number;
  quote: boolean;
  orderedStarts: Set<number>;
  orderedInstance: number;
  /** Named styles the document uses, so a Word import (ours: mammoth reads style names) gets them back. */
  styles: NamedStyles;
  /** Word numbers each tracked change; ids must be unique in the document. */
  nextRevisionId: number;
  /** Footnote numbers by reference id: Word's footnote ids are the same numbers. */
  footnotes: Map<string, number>;
  /** What a horizontal rule becomes; absent: a bordered paragraph Word and our import know as a rule. */
  sceneBreak?: () => Paragraph;
  pictures: DocxPictures;
  /** The width of the text column in pixels: a picture at 100 % is at most this wide. */
  textWidthPx: number;
}

/** A pending tracked change as a Word revision (`w:ins` / `w:del`), or undefined for ordinary text. */
function revisionOf(node: RichNode, ctx: Context) {
  const mark = node.marks?.find((m) => m.type === 'insertion' || m.type === 'deletion');
  if (!mark) return undefined;
  const author =
    typeof mark.attrs?.author_name === 'string' && mark.attrs.author_name
      ? mark.attrs.author_name
      : 'Quillwright';
  const created =
    typeof mark.attrs?.created_at === 'string' ? new Date(mark.attrs.created_at) : new Date(NaN);
  const date = (Number.isNaN(created.getTime()) ? new Date() : created)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
  return { kind: mark.type as 'insertion' | 'deletion', id: ctx.nextRevisionId++, author, date };
}

/**
 * Word keeps what the editor has and Word's direct formatting cannot say to a reader of styles (a code
 * block's language, an ordered list's start, a rule, a text colour) as named styles: they look right in
 * Word and our import recognises them by name (src/shared/export/word-styles.ts).
 */
class NamedStyles {
  readonly paragraph = new Map<string, IParagraphStyleOptions>();
  readonly character = new Map<string, ICharacterStyleOptions>();

  codeBlock(language: string): string {
    const id = `QwCode-${language.replace(/[^A-Za-z0-9]/g, '_')}`;
    this.paragraph.set(id, {
      id,
      name: WORD_STYLE_NAMES.codeBlock(language),
      basedOn: 'Normal',
      run: { font: MONOSPACE },
    });
    return id;
  }

  listStart(start: number): string {
    const id = `QwListStart-${start}`;
    this.paragraph.set(id, { id, name: WORD_STYLE_NAMES.listStart(start), basedOn: 'Normal' });
    return id;
  }

  rule(): string {
    const id = 'QwRule';
    this.paragraph.set(id, { id, name: WORD_STYLE_NAMES.rule, basedOn: 'Normal' });
    return id;
  }

  colour(hex: string): string {
    const id = `QwColour-${hex}`;
    this.character.set(id, { id, name: WORD_STYLE_NAMES.colour(hex), run: { color: hex } });
    return id;
  }
}

function runOptions(node: RichNode, base: Partial<IRunOptions>, styles?: NamedStyles): IRunOptions {
  const options: Record<string, unknown> = { ...base, text: node.text ?? '' };
  for (const mark of node.marks ?? []) {
    if (mark.type === 'bold') options.bold = true;
    if (mark.type === 'italic') options.italics = true;
    if (mark.type === 'underline') options.underline = {};
    if (mark.type === 'strike') options.strike = true;
    if (mark.type === 'code') options.font = MONOSPACE;
    if (mark.type === 'subscript') options.subScript = true;
    if (mark.type === 'superscript') options.superScript = true;
    if (mark.type === 'highlight') {
      const color = typeof mark.attrs?.color === 'string' ? mark.attrs.color : '';
      options.highlight = WORD_HIGHLIGHTS.get(color) ?? HIGHLIGHT_COLORS[0].word;
    }
    if (mark.type === 'textStyle') {
      const { fontFamily, fontSize, color } = mark.attrs ?? {};
      if (typeof fontFamily === 'string' && fontFamily) options.font = fontFamily.replace(/["']/g, '');
      const px = typeof fontSize === 'string' ? Number.parseFloat(fontSize) : NaN;
      // Word measures in half-points; 1px = 0.75pt.
      if (Number.isFinite(px) && px > 0) options.size = Math.round(px * 0.75 * 2);
      if (typeof color === 'string' && /^#[0-9a-f]{6}$/i.test(color)) {
        options.color = color.slice(1);
        if (styles) options.style = styles.colour(color.slice(1).toLowerCase());
      }
    }
  }
  return options as IRunOptions;
}

function inlineChildren(
  nodes: RichNode[] | undefined,
  ctx: Context,
  base: Partial<IRunOptions> = {},
): ParagraphChild[] {
  const children: ParagraphChild[] = [];
  for (const node of nodes ?? []) {
    if (node.type === 'hardBreak') {
      children.push(new TextRun({ text: '', break: 1 }));
      continue;
    }
    if (node.type === 'footnoteReference') {
      const number = ctx.footnotes.get(String(node.attrs?.id));
      if (number !== undefined) children.push(new FootnoteReferenceRun(number));
      continue;
    }
    if (node.type !== 'text') continue;
    const revision = revisionOf(node, ctx);
    if (revision) {
      const options = {
        ...runOptions(node, base, ctx.styles),
        id: revision.id,
        author: revision.author,
        date: revision.date,
      };
      children.push(
        revision.kind === 'insertion' ? new InsertedTextRun(options) : new DeletedTextRun(options),
      );
      continue;
    }
    const run = new TextRun(runOptions(node, base, ctx.styles));
    const link = node.marks?.find((m) => m.type === 'link');
    const href = typeof link?.attrs?.href === 'string' ? sanitizeHref(link.attrs.href) : '';
    if (href && /^[a-z][a-z0-9+.-]*:/i.test(href)) {
      children.push(
        new ExternalHyperlink({
          link: href,
          children: [new TextRun({ ...runOptions(node, base), style: 'Hyperlink' })],
        }),
      );
    } else {
      children.push(run);
    }
  }
  return children;
}

function alignmentOf(node: RichNode) {
  const align = node.attrs?.textAlign;
  return typeof align === 'string' && align in ALIGNMENTS
    ? ALIGNMENTS[align as keyof typeof ALIGNMENTS]
    : undefined;
}

type Block = Paragraph | Table;

function blocks(nodes: RichNode[] | undefined, ctx: Context): Block[] {
  const out: Block[] = [];
  for (const node of nodes ?? []) out.push(...block(node, ctx));
  return out;
}

function block(
  node: RichNode,
  ctx: Context,
  /** `start`: set on the first item of an ordered list that does not start at 1. */
  listItem?: { reference: string; instance: number; start?: number; box?: string },
): Block[] {
  const quoteStyle = ctx.quote
    ? {
        indent: { left: 720 },
        border: { left: { style: BorderStyle.SINGLE, size: 12, color: 'BBBBBB', space: 8 } },
      }
    : {};
  switch (node.type) {
    case 'paragraph':
      return [
        new Paragraph({
          children: [
            ...(listItem?.box ? [new TextRun(`${listItem.box} `)] : []),
            ...inlineChildren(node.content, ctx, ctx.quote ? { italics: true } : {}),
          ],
          alignment: alignmentOf(node),
          ...(listItem?.start !== undefined ? { style: ctx.styles.listStart(listItem.start) } : {}),
          ...(listItem
            ? {
                numbering: {
                  reference: listItem.reference,
                  level: Math.min(ctx.listDepth - 1, 8),
                  instance: listItem.instance,
                },
              }
            : {}),
          ...quoteStyle,
        }),
      ];
    case 'heading': {
      const level = Number(node.attrs?.level);
      return [
        new Paragraph({
          heading: HEADINGS[(level === 1 || level === 2 || level === 3 ? level : 1) as 1 | 2 | 3],
          children: inlineChildren(node.content, ctx),
          alignment: alignmentOf(node),
        }),
      ];
    }
    case 'blockquote':
      return blocks(node.content, { ...ctx, quote: true });
    case 'codeBlock': {
      const lines = (node.content ?? [])
        .map((t) => t.text ?? '')
        .join('')
        .split('\n');
      const language = typeof node.attrs?.language === 'string' ? node.attrs.language : '';
      return [
        new Paragraph({
          ...(language ? { style: ctx.styles.codeBlock(language) } : {}),
          children: lines.map(
            (line, i) => new TextRun({ text: line, font: MONOSPACE, break: i > 0 ? 1 : 0 }),
          ),
          shading: { fill: 'F3F4F6' },
        }),
      ];
    }
    case 'horizontalRule':
      if (ctx.sceneBreak) return [ctx.sceneBreak()];
      return [
        new Paragraph({
          style: ctx.styles.rule(),
          border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: '999999', space: 1 } },
        }),
      ];
    case 'image':
      return picture(node, ctx);
    case 'table':
      return [table(node, ctx)];
    case 'bulletList':
    case 'orderedList':
    case 'taskList': {
      let reference = node.type === 'taskList' ? TASK_REF : BULLET_REF;
      let start = 1;
      if (node.type === 'orderedList') {
        start = Math.max(1, Number(node.attrs?.start) || 1);
        ctx.orderedStarts.add(start);
        reference = `ordered-${start}`;
      }
      // Each ordered list restarts its numbering: a new instance of the numbering definition.
      const instance = ++ctx.orderedInstance;
      const inner = { ...ctx, listDepth: ctx.listDepth + 1 };
      const out: Block[] = [];
      for (const [index, item] of (node.content ?? []).entries()) {
        const [first, ...rest] = item.content ?? [];
        const marksStart = index === 0 && start !== 1;
        const box =
          node.type === 'taskList'
            ? { box: item.attrs?.checked === true ? TASK_BOXES.checked : TASK_BOXES.unchecked }
            : {};
        if (first)
          out.push(...block(first, inner, { reference, instance, ...(marksStart ? { start } : {}), ...box }));
        for (const child of rest) out.push(...block(child, inner));
      }
      return out;
    }
    default:
      return [];
  }
}

const textAttr = (node: RichNode, name: string) => {
  const value = node.attrs?.[name];
  return typeof value === 'string' ? value.trim() : '';
};

/**
 * An image as a Word picture (inline, in a paragraph of its own, aligned as in the editor), its alt text the
 * picture's description, its caption a paragraph in Word's own "caption" style under it. Its width is its
 * share of the text column, never wider than the picture itself; a very tall one is scaled down to fit a
 * page. Without its bytes (a picture the reader may not see, or whose file is gone) the alt text stands in
 * its place, in italics.
 */
function picture(node: RichNode, ctx: Context): Paragraph[] {
  const alt = textAttr(node, 'alt');
  const caption = textAttr(node, 'title');
  const align = textAttr(node, 'align');
  const alignment =
    align in PICTURE_ALIGNMENTS
      ? PICTURE_ALIGNMENTS[align as keyof typeof PICTURE_ALIGNMENTS]
      : AlignmentType.CENTER;
  const src = textAttr(node, 'src');
  const found = src ? ctx.pictures.get(src) : undefined;
  const captionParagraph = caption
    ? [
        new Paragraph({
          style: 'Caption',
          alignment,
          indent: { firstLine: 0 },
          children: [new TextRun(caption)],
        }),
      ]
    : [];
  if (!found || !(found.width > 0) || !(found.height > 0)) {
    return [
      new Paragraph({ children: [new TextRun({ text: `[${alt || 'Image'}]`, italics: true })] }),
      ...captionParagraph,
    ];
  }
  const share = Number(node.attrs?.width) > 0 ? Math.min(100, Number(node.attrs?.width)) / 100 : 1;
  let width = Math.min(found.width, ctx.textWidthPx * share);
  let height = (width * found.height) / found.width;
  if (height > MAX_PICTURE_HEIGHT_PX) {
    width = (width * MAX_PICTURE_HEIGHT_PX) / height;
    height = MAX_PICTURE_HEIGHT_PX;
  }
  const run = new ImageRun({
    type: PICTURE_TYPES[found.mime],
    data: found.bytes,
    transformation: { width: Math.max(1, Math.round(width)), height: Math.max(1, Math.round(height)) },
    // No drawing title: LibreOffice reads a title as the alt text in its place.
    altText: { name: alt || 'Picture', description: alt },
  });
  return [
    new Paragraph({
      alignment,
      indent: { firstLine: 0 },
      keepNext: captionParagraph.length > 0,
      children: [run],
    }),
    ...captionParagraph,
  ];
}

/** Column widths in twips: a column's stored width where a cell of it has one, the rest sharing what is left. */
function columnWidths(grid: ReturnType<typeof tableGrid>): number[] {
  const columns = grid[0]?.length ?? 0;
  const sized: (number | undefined)[] = new Array(columns).fill(undefined);
  for (const row of grid) {
    row.forEach((cell, column) => {
      const widths = cell?.attrs?.colwidth;
      if (!Array.isArray(widths)) return;
      widths.forEach((width, offset) => {
        if (typeof width === 'number' && width > 0 && sized[column + offset] === undefined)
          sized[column + offset] = Math.round(width * TWIPS_PER_PX);
      });
    });
  }
  const used = sized.reduce<number>((sum, width) => sum + (width ?? 0), 0);
  const unsized = sized.filter((width) => width === undefined).length;
  const share = unsized > 0 ? Math.max(600, Math.round((TABLE_WIDTH_TWIPS - used) / unsized)) : 0;
  return sized.map((width) => width ?? share);
}

/** A real Word table: the header row repeats on each page, merged cells span columns and rows. */
function table(node: RichNode, ctx: Context): Table {
  const grid = tableGrid(node);
  const widths = columnWidths(grid);
  const header = hasHeaderRow(node);
  const inner = { ...ctx, listDepth: 0, quote: false };
  return new Table({
    columnWidths: widths,
    width: { size: widths.reduce((sum, width) => sum + width, 0), type: WidthType.DXA },
    rows: grid.map(
      (row, rowIndex) =>
        new TableRow({
          // Only the header row says so: mammoth reads a row marked "not a header" as a header too.
          ...(header && rowIndex === 0 ? { tableHeader: true } : {}),
          children: row.flatMap((cell, column) => {
            if (!cell) return [];
            const colspan = Math.max(1, Number(cell.attrs?.colspan) || 1);
            const rowspan = Math.max(1, Number(cell.attrs?.rowspan) || 1);
            const content = blocks(cell.content, inner);
            return [
              new TableCell({
                columnSpan: colspan,
                rowSpan: rowspan,
                width: {
                  size: widths.slice(column, column + colspan).reduce((sum, width) => sum + width, 0),
                  type: WidthType.DXA,
                },
                // Word requires a paragraph in every cell.
                children: content.length > 0 ? content : [new Paragraph({})],
              }),
            ];
          }),
        }),
    ),
  });
}

function levels(format: (typeof LevelFormat)[keyof typeof LevelFormat], start: number, glyph?: string) {
  return Array.from({ length: 9 }, (_, level) => ({
    level,
    format,
    start,
    text:
      glyph ?? (format === LevelFormat.BULLET ? (['•', '◦', '▪'][level % 3] as string) : `%${level + 1}.`),
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: { left: INDENT_PER_LEVEL * (level + 2), hanging: INDENT_PER_LEVEL } } },
  }));
}

/** Word's numbering definitions for the lists a converter has met. */
function numberingOf(ctx: Context) {
  return {
    config: [
      { reference: BULLET_REF, levels: levels(LevelFormat.BULLET, 1) },
      { reference: TASK_REF, levels: levels(LevelFormat.BULLET, 1, '') },
      ...[...ctx.orderedStarts].map((start) => ({
        reference: `ordered-${start}`,
        levels: levels(LevelFormat.DECIMAL, start),
      })),
    ],
  };
}

/**
 * Rich text to Word blocks, for a Word file built elsewhere (a compiled book): `blocks` may be called once
 * per chapter; `styles` and `numbering` then hold what every call used and go into the one Document.
 * `pictures` are the images' bytes by `src` (without them an image is its alt text); `textWidthPx` is the
 * page's text width, which a picture at 100 % fills at most.
 */
export function createDocxConverter(
  options: { sceneBreak?: () => Paragraph; pictures?: DocxPictures; textWidthPx?: number } = {},
) {
  const ctx: Context = {
    listDepth: 0,
    quote: false,
    orderedStarts: new Set(),
    orderedInstance: 0,
    styles: new NamedStyles(),
    nextRevisionId: 1,
    footnotes: new Map(),
    ...(options.sceneBreak ? { sceneBreak: options.sceneBreak } : {}),
    pictures: options.pictures ?? new Map(),
    textWidthPx: options.textWidthPx ?? TEXT_WIDTH_PX,
  };
  const footnotes: Record<number, { children: Paragraph[] }> = {};
  let nextFootnote = 1;
  return {
    /**
     * One chapter's blocks; its `notes` (paired with its references by id) become Word footnotes, whose ids
     * run on through the file (Word numbers them as the document's sections say).
     */
    blocks: (nodes: RichNode[] | undefined, notes: { id: string; blocks: RichNode[] }[] = []) => {
      ctx.footnotes = new Map(notes.map((note) => [note.id, nextFootnote++]));
      for (const note of notes) {
        const paragraphs = blocks(note.blocks, { ...ctx, listDepth: 0, quote: false }).filter(
          (block): block is Paragraph => block instanceof Paragraph,
        );
        footnotes[ctx.footnotes.get(note.id)!] = {
          children: paragraphs.length > 0 ? paragraphs : [new Paragraph({})],
        };
      }
      return blocks(nodes, ctx);
    },
    footnotes: () => footnotes,
    styles: () => ({
      paragraphStyles: [...ctx.styles.paragraph.values()],
      characterStyles: [...ctx.styles.character.values()],
    }),
    numbering: () => numberingOf(ctx),
  };
}

/**
 * A Word document with real heading styles, lists, task lists, tables, quotes, code, links and text styles
 * (highlight, sub/superscript), footnotes (Word's own, at the foot of the page) and the `pictures` given (others:
 * their alt text); pending tracked changes become
 * Word revisions (Word and LibreOffice show them for review).
 */
export function documentToDocx(
  rawTitle: string,
  doc: RichNode,
  { pictures = new Map() }: { pictures?: DocxPictures } = {},
): Document {
  // The docx package escapes XML and drops characters XML cannot hold; line breaks would still split it.
  const title = titleAsPlainLine(rawTitle);
  const ctx: Context = {
    listDepth: 0,
    quote: false,
    orderedStarts: new Set(),
    orderedInstance: 0,
    styles: new NamedStyles(),
    nextRevisionId: 1,
    footnotes: footnoteNumbersOf(doc),
    pictures,
    textWidthPx: TEXT_WIDTH_PX,
  };
  const body = blocks(doc.content, ctx);
  // The notes become Word's own footnotes (at the foot of the page), numbered as the references are.
  const notes = doc.content?.find((node) => node.type === 'footnotes')?.content ?? [];
  const footnotes: Record<number, { children: Paragraph[] }> = {};
  for (const note of notes) {
    const number = ctx.footnotes.get(String(note.attrs?.id));
    if (number === undefined) continue;
    const paragraphs = blocks(note.content, { ...ctx, listDepth: 0, quote: false }).filter(
      (block): block is Paragraph => block instanceof Paragraph,
    );
    footnotes[number] = { children: paragraphs.length > 0 ? paragraphs : [new Paragraph({})] };
  }
  return new Document({
    title,
    creator: 'Quillwright',
    footnotes,
    styles: {
      paragraphStyles: [...ctx.styles.paragraph.values()],
      characterStyles: [...ctx.styles.character.values()],
    },
    numbering: {
      config: [
        { reference: BULLET_REF, levels: levels(LevelFormat.BULLET, 1) },
        { reference: TASK_REF, levels: levels(LevelFormat.BULLET, 1, '') },
        ...[...ctx.orderedStarts].map((start) => ({
          reference: `ordered-${start}`,
          levels: levels(LevelFormat.DECIMAL, start),
        })),
      ],
    },
    sections: [
      { children: [new Paragraph({ heading: HeadingLevel.TITLE, children: [new TextRun(title)] }), ...body] },
    ],
  });
}
