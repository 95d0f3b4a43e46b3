/**
 * pdfmake draws every word of a line as a text object of its own (a save, a transform, a font, the glyphs,
 * a restore: pdfmake's own "TODO: lines without differently styled inlines should be written to pdf as one
 * stream"). A book is mostly such lines, and drawing them word by word was half of a PDF's time. This draws
 * each run of words in one style as one text object instead: pdfkit's word spacing puts the justified gaps
 * exactly where pdfmake measured them (a word's width includes its one trailing space; justification adds
 * the same amount after each word). Lines with anything else (links, superscripts, decorations, a page
 * reference, a destination) are drawn by pdfmake as before.
 */

interface Inline {
  text: string;
  x: number;
  width: number;
  font: { ascender: number };
  fontSize: number;
  color?: string;
  opacity?: number;
  characterSpacing?: number;
  justifyShift?: number;
  [key: string]: unknown;
}

interface Line {
  inlines: Inline[];
  id?: string;
  _outline?: unknown;
  _pageNodeRef?: unknown;
  getHeight(): number;
  getAscenderHeight(): number;
}

interface PdfKit {
  opacity(value: number): void;
  fill(color: unknown): void;
  resolveColor(color: unknown, fallback: string): unknown;
  fontSize(size: number): void;
  text(text: string, x: number, y: number, options: object): void;
  _font: unknown;
}

interface RendererPrototype {
  pdfDocument: PdfKit;
  renderLine(this: RendererPrototype, line: Line, x?: number, y?: number): void;
}

/** What pdfmake would draw or link beyond the glyphs: such an inline is left to pdfmake. */
const SPECIAL = [
  'link',
  'linkToPage',
  'linkToDestination',
  '_pageNodeRef',
  'fontFeatures',
  'sup',
  'sub',
  'background',
  'decoration',
] as const;

/** A word and the one space after it, or a line's last word (with or without its space). */
const WORD_AND_SPACE = /^\S+ $/;
const LAST_WORD = /^\S+ ?$/;

function sameStyle(a: Inline, b: Inline): boolean {
  return (
    a.font === b.font &&
    a.fontSize === b.fontSize &&
    a.color === b.color &&
    a.opacity === b.opacity &&
    (a.characterSpacing ?? 0) === 0 &&
    (b.characterSpacing ?? 0) === 0
  );
}

/** The line's inlines in runs drawn as one text object each, or null when pdfmake should draw the line. */
export function groupInlines(line: Line): Inline[][] | null {
  if (line._outline || line._pageNodeRef || line.id) return null;
  const groups: Inline[][] = [];
  let current: Inline[] = [];
  for (const inline of line.inlines) {
    if (SPECIAL.some((key) => inline[key])) return null;
    const previous = current.at(-1);
    if (
      previous &&
      (!sameStyle(previous, inline) || !WORD_AND_SPACE.test(previous.text) || !LAST_WORD.test(inline.text))
    ) {
      groups.push(current);
      current = [];
    }
    current.push(inline);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** Installs the grouped drawing on pdfmake's renderer (once; pdfmake then calls it for every line). */
export function installLineGrouping(pdfmakeRequire: NodeJS.Require): void {
  const { default: Renderer } = pdfmakeRequire('pdfmake/js/Renderer') as {
    default: { prototype: RendererPrototype & { __qwGrouped?: boolean } };
  };
  const prototype = Renderer.prototype;
  if (prototype.__qwGrouped) return;
  const original = prototype.renderLine;
  prototype.renderLine = function renderLine(line, x = 0, y = 0) {
    const groups = groupInlines(line);
    if (!groups || groups.every((group) => group.length === 1)) return original.call(this, line, x, y);
    const document = this.pdfDocument;
    const lineHeight = line.getHeight();
    const descent = lineHeight - line.getAscenderHeight();
    // Justification adds the same space after every word of the line but the last (not before the first).
    const justify = line.inlines.find((inline) => inline.justifyShift)?.justifyShift ?? 0;
    for (const group of groups) {
      const first = group[0]!;
      const shiftToBaseline = lineHeight - (first.font.ascender / 1000) * first.fontSize - descent;
      document.opacity(typeof first.opacity === 'number' ? first.opacity : 1);
      document.fill(document.resolveColor(first.color, 'black'));
      document._font = first.font;
      document.fontSize(first.fontSize);
      document.text(group.map((inline) => inline.text).join(''), x + first.x, y + shiftToBaseline, {
        lineBreak: false,
        textWidth: group.reduce((sum, inline) => sum + inline.width, 0),
        characterSpacing: 0,
        wordCount: group.length,
        // Never zero: pdfkit then sets the words one by one, as pdfmake measured them (no kerning across a space).
        wordSpacing: justify || Number.EPSILON,
      });
    }
  };
  prototype.__qwGrouped = true;
}
