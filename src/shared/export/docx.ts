import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  LevelFormat,
  Paragraph,
  TextRun,
  type IRunOptions,
  type ParagraphChild,
} from 'docx';
import { sanitizeHref, type RichTextNode as RichNode } from '../schemas/richText';

const HEADINGS = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const;
const ALIGNMENTS = {
  left: AlignmentType.LEFT,
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
  justify: AlignmentType.JUSTIFIED,
} as const;
const MONOSPACE = 'Courier New';
const BULLET_REF = 'bullet';
const INDENT_PER_LEVEL = 360;

interface Context {
  listDepth: number;
  quote: boolean;
  orderedStarts: Set<number>;
  orderedInstance: number;
}

function runOptions(node: RichNode, base: Partial<IRunOptions>): IRunOptions {
  const options: Record<string, unknown> = { ...base, text: node.text ?? '' };
  for (const mark of node.marks ?? []) {
    if (mark.type === 'bold') options.bold = true;
    if (mark.type === 'italic') options.italics = true;
    if (mark.type === 'underline') options.underline = {};
    if (mark.type === 'strike') options.strike = true;
    if (mark.type === 'code') options.font = MONOSPACE;
    if (mark.type === 'textStyle') {
      const { fontFamily, fontSize, color } = mark.attrs ?? {};
      if (typeof fontFamily === 'string' && fontFamily) options.font = fontFamily.replace(/["']/g, '');
      const px = typeof fontSize === 'string' ? Number.parseFloat(fontSize) : NaN;
      // Word measures in half-points; 1px = 0.75pt.
      if (Number.isFinite(px) && px > 0) options.size = Math.round(px * 0.75 * 2);
      if (typeof color === 'string' && /^#[0-9a-f]{6}$/i.test(color)) options.color = color.slice(1);
    }
  }
  return options as IRunOptions;
}

function inlineChildren(nodes: RichNode[] | undefined, base: Partial<IRunOptions> = {}): ParagraphChild[] {
  const children: ParagraphChild[] = [];
  for (const node of nodes ?? []) {
    if (node.type === 'hardBreak') {
      children.push(new TextRun({ text: '', break: 1 }));
      continue;
    }
    if (node.type !== 'text') continue;
    const run = new TextRun(runOptions(node, base));
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

function blocks(nodes: RichNode[] | undefined, ctx: Context): Paragraph[] {
  const out: Paragraph[] = [];
  for (const node of nodes ?? []) out.push(...block(node, ctx));
  return out;
}

function block(
  node: RichNode,
  ctx: Context,
  listItem?: { reference: string; instance: number },
): Paragraph[] {
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
          children: inlineChildren(node.content, ctx.quote ? { italics: true } : {}),
          alignment: alignmentOf(node),
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
          children: inlineChildren(node.content),
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
      return [
        new Paragraph({
          children: lines.map(
            (line, i) => new TextRun({ text: line, font: MONOSPACE, break: i > 0 ? 1 : 0 }),
          ),
          shading: { fill: 'F3F4F6' },
        }),
      ];
    }
    case 'horizontalRule':
      return [
        new Paragraph({
          border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: '999999', space: 1 } },
        }),
      ];
    case 'bulletList':
    case 'orderedList': {
      let reference = BULLET_REF;
      if (node.type === 'orderedList') {
        const start = Math.max(1, Number(node.attrs?.start) || 1);
        ctx.orderedStarts.add(start);
        reference = `ordered-${start}`;
      }
      // Each ordered list restarts its numbering: a new instance of the numbering definition.
      const instance = ++ctx.orderedInstance;
      const inner = { ...ctx, listDepth: ctx.listDepth + 1 };
      const out: Paragraph[] = [];
      for (const item of node.content ?? []) {
        const [first, ...rest] = item.content ?? [];
        if (first) out.push(...block(first, inner, { reference, instance }));
        for (const child of rest) out.push(...block(child, inner));
      }
      return out;
    }
    default:
      return [];
  }
}

function levels(format: (typeof LevelFormat)[keyof typeof LevelFormat], start: number) {
  return Array.from({ length: 9 }, (_, level) => ({
    level,
    format,
    start,
    text: format === LevelFormat.BULLET ? (['•', '◦', '▪'][level % 3] as string) : `%${level + 1}.`,
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: { left: INDENT_PER_LEVEL * (level + 2), hanging: INDENT_PER_LEVEL } } },
  }));
}

/** A Word document with real heading styles, lists, quotes, code, links and text styles. */
export function documentToDocx(title: string, doc: RichNode): Document {
  const ctx: Context = { listDepth: 0, quote: false, orderedStarts: new Set(), orderedInstance: 0 };
  const body = blocks(doc.content, ctx);
  return new Document({
    title,
    creator: 'Quillwright',
    numbering: {
      config: [
        { reference: BULLET_REF, levels: levels(LevelFormat.BULLET, 1) },
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
