import { randomUUID } from 'node:crypto';
import mammoth from 'mammoth';
import { imageSrc } from '../../shared/editor/image-src';
import {
  codeLanguageOfStyle,
  colourOfStyle,
  listStartOfStyle,
  WORD_STYLE_NAMES,
} from '../../shared/export/word-styles';
import { HIGHLIGHT_COLORS } from '../../shared/constants';
import { openDocxArchive } from './docx-archive';
import { ImportTooComplexError } from './import-limits';

/**
 * Word (.docx) → HTML through mammoth, which maps Word's paragraph and character styles to HTML and
 * ignores most direct formatting. What the editor can hold and mammoth drops is carried through here:
 * - recognised before conversion (`transformDocument`): our own export's code blocks and quotes (direct
 *   formatting: a monospace font, an indented italic paragraph) and its named styles for a code block's
 *   language, an ordered list's start, a horizontal rule and a text colour (src/shared/export/word-styles.ts);
 *   paragraph alignment and a run's font and size (direct formatting, which mammoth reads but does not write);
 * - carried into the HTML as class names (alignment) or as markers in the text (private-use characters,
 *   stripped from the file's own text first), which `applyMarkers` turns into HTML the importer reads.
 * Tables, sub/superscript and highlight (by Word's highlight colour) come through mammoth itself.
 * The result goes through the importer's sanitizer like any HTML, so nothing here widens what may come in.
 * Pictures: with `pictures` set, each picture's bytes are read (under the archive's picture budget) and its
 * <img> gets a placeholder address, an image address of no real document, which the import swaps for the
 * stored image's (ImportedPicture); a picture over the budget (ImportImageTooLargeError) or unreadable is counted in `skipped` and keeps no address.
 * Word's "caption" paragraphs are marked (`p.qw-caption`) for the importer to attach to the picture above.
 * Without `pictures` the bytes are never read and every picture becomes its alt text.
 */

/** A picture read from the file: the placeholder `src` it has in the converted content, and its bytes. */
export interface ImportedPicture {
  src: string;
  bytes: Uint8Array;
}

export interface DocxHtml {
  html: string;
  pictures: ImportedPicture[];
  /** Pictures too large to bring in (they become their alt text). */
  skipped: number;
}

export const CAPTION_CLASS = 'qw-caption';

const MONOSPACE_FONTS = new Set(['courier new', 'courier', 'consolas', 'menlo', 'monaco', 'lucida console']);
const CODE_BLOCK_STYLE = 'Quillwright Code Block';
const CODE_CHAR_STYLE = 'Quillwright Code';
const QUOTE_STYLE = 'Quillwright Quote';
// Word twips: the export indents quotes by half an inch.
const QUOTE_INDENT_TWIPS = 720;
// Word sizes are points; the editor's are CSS pixels (1pt = 4/3 px).
const PX_PER_POINT = 4 / 3;
const FONT_NAME = /^[\p{L}\p{N} ._-]{1,100}$/u;

const ALIGNMENTS: Record<string, string> = {
  left: 'left',
  start: 'left',
  center: 'center',
  right: 'right',
  end: 'right',
  both: 'justify',
  distribute: 'justify',
};
/** Paragraph styles that keep their alignment, and the HTML each becomes. */
const ALIGNABLE_STYLES: Record<string, string> = {
  Normal: 'p',
  Title: 'h1',
  'Heading 1': 'h1',
  'Heading 2': 'h2',
  'Heading 3': 'h3',
  'Heading 4': 'h4',
  'Heading 5': 'h5',
  'Heading 6': 'h6',
  [QUOTE_STYLE]: 'blockquote > p',
  Quote: 'blockquote > p',
  'Intense Quote': 'blockquote > p',
};
const HEADING_STYLES = new Set([
  'Title',
  'Heading 1',
  'Heading 2',
  'Heading 3',
  'Heading 4',
  'Heading 5',
  'Heading 6',
]);
const ALIGN_CLASS_PREFIX = 'qw-align-';
const HIGHLIGHT_CLASS_PREFIX = 'qw-highlight-';

const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Heading 4'] => h4:fresh",
  "p[style-name='Heading 5'] => h5:fresh",
  "p[style-name='Heading 6'] => h6:fresh",
  `p[style-name='${CODE_BLOCK_STYLE}'] => pre:separator('\\n')`,
  `r[style-name='${CODE_CHAR_STYLE}'] => code`,
  `p[style-name='${QUOTE_STYLE}'] => blockquote > p:fresh`,
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
  `p[style-name='caption'] => p.${CAPTION_CLASS}:fresh`,
  ...Object.entries(ALIGNABLE_STYLES).flatMap(([style, html]) =>
    [...new Set(Object.values(ALIGNMENTS))].map(
      (align) => `p[style-name='${style}|${align}'] => ${html}.${ALIGN_CLASS_PREFIX}${align}:fresh`,
    ),
  ),
  'u => u',
  'strike => s',
  // Word's highlight colours the editor has keep their colour; any other is the default highlight.
  ...HIGHLIGHT_COLORS.slice(1).map(
    (color) => `highlight[color='${color.word}'] => mark.${HIGHLIGHT_CLASS_PREFIX}${color.word}`,
  ),
  'highlight => mark',
];
const HIGHLIGHT_VALUES = new Map<string, string>(HIGHLIGHT_COLORS.map((color) => [color.word, color.value]));

// Markers: private-use characters around a URI-encoded instruction.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKER_CHARACTERS = /[\uE000\uE001]/g;
const marker = (instruction: string) => `${OPEN}${encodeURIComponent(instruction)}${CLOSE}`;
const RULE_MARKER = marker('rule');
const SPAN_END_MARKER = marker('/span');

interface DocxElement {
  type: string;
  children?: DocxElement[];
  font?: string | null;
  fontSize?: number | null;
  styleName?: string | null;
  styleId?: string | null;
  numbering?: { isOrdered?: boolean } | null;
  alignment?: string | null;
  indent?: { start?: string | null } | null;
  isItalic?: boolean;
  value?: string;
}

const isMonospace = (run: DocxElement) => MONOSPACE_FONTS.has((run.font ?? '').toLowerCase());

function runsOf(element: DocxElement): DocxElement[] {
  const runs: DocxElement[] = [];
  for (const child of element.children ?? []) {
    if (child.type === 'run') runs.push(child);
    else runs.push(...runsOf(child));
  }
  return runs;
}

const textLength = (element: DocxElement): number =>
  element.type === 'text'
    ? (element.value ?? '').length
    : (element.children ?? []).reduce((sum, child) => sum + textLength(child), 0);

const hasText = (run: DocxElement) =>
  (run.children ?? []).some((child) => child.type === 'text' && (child.value ?? '').trim() !== '');

const textElement = (value: string): DocxElement => ({ type: 'text', value });

function mostCommon<T>(counts: Map<T, number>): T | undefined {
  let best: T | undefined;
  let bestCount = 0;
  for (const [value, count] of counts) if (count > bestCount) [best, bestCount] = [value, count];
  return best;
}

/**
 * The document's body font and size: a file that sets the font on every run (Google Docs does) should not
 * come in with a text style on every word, only where the text differs.
 */
function bodyFormatting(document: DocxElement) {
  const fonts = new Map<string | null, number>();
  const sizes = new Map<number | null, number>();
  for (const run of runsOf(document)) {
    const length = textLength(run);
    fonts.set(run.font ?? null, (fonts.get(run.font ?? null) ?? 0) + length);
    sizes.set(run.fontSize ?? null, (sizes.get(run.fontSize ?? null) ?? 0) + length);
  }
  return { font: mostCommon(fonts) ?? null, size: mostCommon(sizes) ?? null };
}

class WordTransform {
  constructor(private readonly body: { font: string | null; size: number | null }) {}

  element = (element: DocxElement, inHeading = false): DocxElement => {
    if (element.type === 'text')
      return { ...element, value: (element.value ?? '').replace(MARKER_CHARACTERS, '') };
    if (element.type === 'paragraph') return this.paragraph(element);
    if (element.type === 'run') return this.run(element, inHeading);
    if (element.children)
      return { ...element, children: element.children.map((child) => this.element(child, inHeading)) };
    return element;
  };

  private paragraph(element: DocxElement): DocxElement {
    if (element.styleName === WORD_STYLE_NAMES.rule) {
      return { ...element, styleName: null, styleId: null, children: [this.markerRun(RULE_MARKER)] };
    }
    const language = codeLanguageOfStyle(element.styleName);
    const runs = runsOf(element);
    const textRuns = runs.filter(hasText);
    if (
      language !== undefined ||
      (!element.styleName && textRuns.length > 0 && textRuns.every(isMonospace))
    ) {
      // A code block's runs stay plain text: no inline code, no text styles.
      const children = (element.children ?? []).map((child) => this.plain(child));
      if (language) children.unshift(this.markerRun(marker(`code:${language}`)));
      return { ...element, styleName: CODE_BLOCK_STYLE, styleId: null, children };
    }
    let styleName = element.styleName ?? null;
    const listStart = listStartOfStyle(styleName);
    if (listStart !== undefined) styleName = null;
    const indent = Number(element.indent?.start ?? 0);
    if (!styleName && !element.numbering && indent >= QUOTE_INDENT_TWIPS && textRuns.length > 0) {
      // The export sets quotes in italics; that is the quote's look, not the writer's emphasis.
      for (const run of runs) run.isItalic = false;
      styleName = QUOTE_STYLE;
    }
    const children = (element.children ?? []).map((child) =>
      this.element(child, HEADING_STYLES.has(styleName ?? '')),
    );
    if (listStart !== undefined && element.numbering?.isOrdered)
      children.unshift(this.markerRun(marker(`start:${listStart}`)));
    const align = ALIGNMENTS[element.alignment ?? ''];
    if (align && !element.numbering && (styleName ?? 'Normal') in ALIGNABLE_STYLES) {
      styleName = `${styleName ?? 'Normal'}|${align}`;
    }
    return {
      ...element,
      styleName,
      styleId: styleName === element.styleName ? element.styleId : null,
      children,
    };
  }

  private run(element: DocxElement, inHeading: boolean): DocxElement {
    const children = (element.children ?? []).map((child) => this.element(child, inHeading));
    if (isMonospace(element) && !element.styleName) {
      return { ...element, children, styleName: CODE_CHAR_STYLE, styleId: null };
    }
    const colour = colourOfStyle(element.styleName);
    const css: string[] = [];
    if (element.font && element.font !== this.body.font && FONT_NAME.test(element.font))
      css.push(`font-family: ${element.font}`);
    // A heading's size is the heading's; only body text keeps its own size.
    if (!inHeading && element.fontSize && element.fontSize !== this.body.size) {
      css.push(`font-size: ${Number((element.fontSize * PX_PER_POINT).toFixed(2))}px`);
    }
    if (colour) css.push(`color: ${colour}`);
    const styleName = colour ? null : element.styleName;
    const styleId = colour ? null : element.styleId;
    if (css.length === 0 || !hasText(element)) return { ...element, children, styleName, styleId };
    return {
      ...element,
      styleName,
      styleId,
      children: [textElement(marker(`span:${css.join('; ')}`)), ...children, textElement(SPAN_END_MARKER)],
    };
  }

  private plain(element: DocxElement): DocxElement {
    if (element.type === 'text') return this.element(element);
    return {
      ...element,
      ...(element.type === 'run' ? { styleName: null, styleId: null } : {}),
      children: element.children?.map((child) => this.plain(child)),
    };
  }

  private markerRun(text: string): DocxElement {
    return {
      type: 'run',
      children: [textElement(text)],
      isBold: false,
      isItalic: false,
      isUnderline: false,
      isStrikethrough: false,
      isAllCaps: false,
      isSmallCaps: false,
      verticalAlignment: 'baseline',
      font: null,
      fontSize: null,
      highlight: null,
      styleId: null,
      styleName: null,
    } as DocxElement;
  }
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const markerPattern = (instructionPrefix: string) => `${OPEN}${encodeURIComponent(instructionPrefix)}`;

/** Turns the markers and alignment classes of the transform into the HTML the importer reads. */
function applyMarkers(html: string): string {
  return html
    .replace(
      new RegExp(`<mark class="${HIGHLIGHT_CLASS_PREFIX}([a-z]+)">`, 'g'),
      (_, word: string) => `<mark data-color="${HIGHLIGHT_VALUES.get(word) ?? ''}">`,
    )
    .replace(
      new RegExp(` class="${ALIGN_CLASS_PREFIX}(left|center|right|justify)"`, 'g'),
      ' style="text-align: $1"',
    )
    .replace(new RegExp(`<p>${RULE_MARKER}</p>`, 'g'), '<hr>')
    .replace(
      new RegExp(`<pre>${markerPattern('code:')}([^${CLOSE}]*)${CLOSE}([\\s\\S]*?)</pre>`, 'g'),
      (_, language: string, code: string) => {
        const name = decodeURIComponent(language);
        return /^[A-Za-z0-9_+#.-]{1,64}$/.test(name)
          ? `<pre><code class="language-${name}">${code}</code></pre>`
          : `<pre>${code}</pre>`;
      },
    )
    .replace(
      new RegExp(`<ol>(\\s*<li>)${markerPattern('start:')}(\\d{1,9})${CLOSE}`, 'g'),
      '<ol start="$2">$1',
    )
    .replace(
      new RegExp(`${markerPattern('span:')}([^${CLOSE}]*)${CLOSE}`, 'g'),
      (_, css: string) => `<span style="${escapeAttribute(decodeURIComponent(css))}">`,
    )
    .replaceAll(SPAN_END_MARKER, '</span>')
    .replace(new RegExp(`${OPEN}[^${CLOSE}]*${CLOSE}`, 'g'), '');
}

/**
 * mammoth writes Word's footnotes as a list at the end (`<ol><li id="footnote-1">…`), their references as
 * `<sup><a href="#footnote-1">[1]</a></sup>`: the list becomes the section our own HTML has, which the
 * importer reads as the document's notes.
 */
function footnotesAsSection(html: string): string {
  return html.replace(
    /<ol>(<li id="footnote-\d+">[\s\S]*<\/li>)<\/ol>$/u,
    '<section class="footnotes"><ol>$1</ol></section>',
  );
}

export class CorruptFileError extends Error {
  override name = 'CorruptFileError';
}

export async function docxToHtml(buffer: Buffer, { pictures = false } = {}): Promise<DocxHtml> {
  const read: ImportedPicture[] = [];
  let skipped = 0;
  try {
    // mammoth reads only what openDocxArchive inflated, under its byte budget (docx-archive.ts).
    const file = openDocxArchive(buffer);
    const result = await mammoth.convertToHtml(
      // `file` is mammoth's input for an already opened archive; its type declarations name only path/buffer.
      { file } as unknown as { buffer: Buffer },
      {
        styleMap: STYLE_MAP,
        externalFileAccess: false,
        transformDocument: (document: DocxElement) =>
          new WordTransform(bodyFormatting(document)).element(document),
        convertImage: mammoth.images.imgElement(async (image: { readAsBuffer(): Promise<Buffer> }) => {
          if (!pictures) return { src: '' };
          try {
            const bytes = await image.readAsBuffer();
            const src = imageSrc(randomUUID(), randomUUID());
            read.push({ src, bytes: new Uint8Array(bytes) });
            return { src };
          } catch {
            // Over the picture budget (ImportImageTooLargeError), or a damaged or missing part: that picture
            // is skipped, the rest of the file still comes in.
            skipped++;
            return { src: '' };
          }
        }),
      },
    );
    return { html: footnotesAsSection(applyMarkers(result.value)), pictures: read, skipped };
  } catch (error) {
    if (error instanceof ImportTooComplexError || error instanceof RangeError) throw error;
    throw new CorruptFileError(error instanceof Error ? error.message : String(error));
  }
}
