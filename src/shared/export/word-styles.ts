/**
 * Named Word styles that carry what direct formatting cannot tell a reader of styles: the DOCX export
 * writes them, the Word import recognises them by name. Word shows them in its style list; each also
 * looks right in Word by itself (a code block's style sets the monospace font, a colour's sets the colour).
 */

const CODE_BLOCK_PREFIX = 'Quillwright Code Block';
const LIST_START_PREFIX = 'Quillwright List Start';
const COLOUR_PREFIX = 'Quillwright Colour';

export const WORD_STYLE_NAMES = {
  codeBlock: (language: string) => `${CODE_BLOCK_PREFIX} (${language})`,
  listStart: (start: number) => `${LIST_START_PREFIX} ${start}`,
  rule: 'Quillwright Horizontal Rule',
  colour: (hex: string) => `${COLOUR_PREFIX} #${hex}`,
} as const;

const CODE_BLOCK_NAME = /^Quillwright Code Block \(([A-Za-z0-9_+#.-]{1,64})\)$/;
const LIST_START_NAME = /^Quillwright List Start (\d{1,9})$/;
const COLOUR_NAME = /^Quillwright Colour #([0-9a-f]{6})$/i;

/** The code block language a paragraph style name carries, if it is one of ours. */
export function codeLanguageOfStyle(name: string | null | undefined): string | undefined {
  return CODE_BLOCK_NAME.exec(name ?? '')?.[1];
}

/** The start number an ordered list's first paragraph style carries, if it is one of ours. */
export function listStartOfStyle(name: string | null | undefined): number | undefined {
  const match = LIST_START_NAME.exec(name ?? '');
  return match ? Number(match[1]) : undefined;
}

/** The text colour (`#rrggbb`) a character style name carries, if it is one of ours. */
export function colourOfStyle(name: string | null | undefined): string | undefined {
  const match = COLOUR_NAME.exec(name ?? '');
  return match ? `#${match[1]!.toLowerCase()}` : undefined;
}
