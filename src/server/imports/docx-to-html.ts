import mammoth from 'mammoth';

/**
 * Word (.docx) → HTML through mammoth, which maps Word's paragraph and character styles to HTML and
 * ignores direct formatting. Our own Word export marks code and quotes by direct formatting (a monospace
 * font, an indented italic paragraph), so those are recognised here and turned into styles first.
 * Images come out as their alt text (the file's image bytes are never read).
 */

const MONOSPACE_FONTS = new Set(['courier new', 'courier', 'consolas', 'menlo', 'monaco', 'lucida console']);
const CODE_BLOCK_STYLE = 'Quillwright Code Block';
const CODE_CHAR_STYLE = 'Quillwright Code';
const QUOTE_STYLE = 'Quillwright Quote';
// Word twips: the export indents quotes by half an inch.
const QUOTE_INDENT_TWIPS = 720;

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
  'u => u',
  'strike => s',
];

interface DocxElement {
  type: string;
  children?: DocxElement[];
  font?: string | null;
  styleName?: string | null;
  styleId?: string | null;
  numbering?: unknown;
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

const hasText = (run: DocxElement) =>
  (run.children ?? []).some((child) => child.type === 'text' && (child.value ?? '').trim() !== '');

function recogniseDirectFormatting(element: DocxElement): DocxElement {
  if (element.type === 'paragraph' && !element.styleName) {
    const runs = runsOf(element);
    const textRuns = runs.filter(hasText);
    if (textRuns.length > 0 && textRuns.every(isMonospace)) {
      return { ...element, styleName: CODE_BLOCK_STYLE, styleId: null };
    }
    const indent = Number(element.indent?.start ?? 0);
    if (!element.numbering && indent >= QUOTE_INDENT_TWIPS && textRuns.length > 0) {
      // The export sets quotes in italics; that is the quote's look, not the writer's emphasis.
      for (const run of runs) run.isItalic = false;
      return {
        ...element,
        styleName: QUOTE_STYLE,
        styleId: null,
        children: element.children?.map(recogniseDirectFormatting),
      };
    }
  }
  if (element.type === 'run' && isMonospace(element) && !element.styleName) {
    return { ...element, styleName: CODE_CHAR_STYLE, styleId: null };
  }
  if (element.children) return { ...element, children: element.children.map(recogniseDirectFormatting) };
  return element;
}

export class CorruptFileError extends Error {
  override name = 'CorruptFileError';
}

export async function docxToHtml(buffer: Buffer): Promise<string> {
  try {
    const result = await mammoth.convertToHtml(
      { buffer },
      {
        styleMap: STYLE_MAP,
        externalFileAccess: false,
        transformDocument: recogniseDirectFormatting,
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
    return result.value;
  } catch (error) {
    throw new CorruptFileError(error instanceof Error ? error.message : String(error));
  }
}
