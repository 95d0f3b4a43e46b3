/**
 * Text for XML (EPUB's XHTML, OPF and SVG): characters XML 1.0 cannot hold (NUL and other C0 controls, C1
 * controls, lone surrogates, U+FFFE/U+FFFF) are dropped, and markup characters escaped, so no user text can
 * make a file ill-formed or add an element.
 */
const NOT_XML = /[^\t\n\r\u0020-\u007e\u00a0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;

/** The text without the characters XML cannot hold (every format of a book is XML inside, but the PDF). */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML, '');
}

export function xmlText(text: string): string {
  return xmlSafe(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
