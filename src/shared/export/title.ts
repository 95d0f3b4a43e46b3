/** How a document's title is written into each export format, so no title can become markup there. */

/**
 * A title as one line of plain text: control characters (terminal escape sequences, NUL) and line breaks
 * become spaces, so a title cannot start a second block or drive a terminal in any export.
 */
export function titleAsPlainLine(title: string): string {
  // eslint-disable-next-line no-control-regex
  return title.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, ' ').trim();
}

/**
 * A title as the text of a Markdown heading, read back as exactly that text: every character that could
 * start inline markup (emphasis, code, links and images, raw HTML, entities, autolinks, strikethrough, the
 * editor's `++underline++`) or close the heading (a trailing `#`) is backslash-escaped.
 */
export function markdownTitle(title: string): string {
  return titleAsPlainLine(title).replace(/[\\`*_[\]<>&~#+]/g, '\\$&');
}
