import type { RichTextDoc, RichTextNode } from '../schemas/richText';
import { footnoteNumbersOf } from '../editor/footnotes';
import { imageAsText } from '../editor/image-text';
import { tableGrid } from '../editor/table-grid';

/**
 * A document as plain text, laid out the way people write it by hand: blocks apart by one blank line; a list is
 * one block, an item a line with its marker ("- " or "3. ", counted from the list's start), nested lists and an
 * item's further paragraphs indented under the item's text; a task's marker is "[ ] " or "[x] "; quotes
 * indented; a divider as "---"; a table one line a row, its cells apart by tabs (a merged cell's text in its
 * first column, the columns it covers empty). Empty paragraphs add no lines. Hard breaks are newlines. A footnote
 * reference is its number in brackets ("[1]"); the notes follow under "Notes", one "[1] text" line each. An
 * image is "[Image: alt text]" with its caption on the next line (shared/editor/image-text.ts).
 */
export function renderPlainText(doc: RichTextDoc): string {
  footnoteNumbers = footnoteNumbersOf(doc);
  return blocks(doc.content).join('\n\n');
}

/** The numbers of the document being written (set by renderPlainText, which runs synchronously). */
let footnoteNumbers = new Map<string, number>();
const NOTES_HEADING = 'Notes';

function footnoteMarker(id: unknown): string {
  return `[${footnoteNumbers.get(String(id)) ?? '?'}]`;
}

function notes(node: RichTextNode): string {
  const lines = (node.content ?? []).map((note) =>
    indent(blocks(note.content).join('\n'), `${footnoteMarker(note.attrs?.id)} `, '    '),
  );
  return lines.length > 0 ? `${NOTES_HEADING}\n\n${lines.join('\n')}` : '';
}

const BULLET = '-';
const DIVIDER = '---';
const QUOTE_INDENT = '    ';

function blocks(nodes: readonly RichTextNode[] | undefined): string[] {
  const out: string[] = [];
  for (const node of nodes ?? []) {
    const text = block(node);
    if (text !== '') out.push(text);
  }
  return out;
}

function block(node: RichTextNode): string {
  switch (node.type) {
    case 'bulletList':
    case 'orderedList':
    case 'taskList':
      return list(node);
    case 'table':
      return table(node);
    case 'blockquote':
      return indent(blocks(node.content).join('\n\n'), QUOTE_INDENT, QUOTE_INDENT);
    case 'horizontalRule':
      return DIVIDER;
    case 'footnotes':
      return notes(node);
    case 'image':
      // Plain text has no pictures: "[Image: alt text]", its caption on the next line.
      return imageAsText(node.attrs);
    case 'paragraph':
    case 'heading':
    case 'codeBlock':
      return inline(node);
    default:
      return node.text ?? blocks(node.content).join('\n\n');
  }
}

function list(node: RichTextNode): string {
  const ordered = node.type === 'orderedList';
  const start = ordered ? Number(node.attrs?.start ?? 1) || 1 : 1;
  return (node.content ?? [])
    .map((item, index) => {
      const marker =
        node.type === 'taskList'
          ? item.attrs?.checked === true
            ? '[x]'
            : '[ ]'
          : ordered
            ? `${start + index}.`
            : BULLET;
      // An item's paragraphs and nested lists follow each other line by line, no blank line between them.
      const body = blocks(item.content).join('\n');
      return body === '' ? marker : indent(body, `${marker} `, ' '.repeat(marker.length + 1));
    })
    .join('\n');
}

/** Tabs and line breaks inside a cell would read as the next cell or row, so they become spaces. */
function table(node: RichTextNode): string {
  return tableGrid(node)
    .map((row) =>
      row.map((cell) => (cell ? blocks(cell.content).join(' ').replace(/\s+/g, ' ').trim() : '')).join('\t'),
    )
    .join('\n');
}

function inline(node: RichTextNode): string {
  let text = '';
  for (const child of node.content ?? []) {
    if (child.type === 'text') text += child.text ?? '';
    else if (child.type === 'hardBreak') text += '\n';
    else if (child.type === 'footnoteReference') text += footnoteMarker(child.attrs?.id);
    else text += inline(child);
  }
  return text;
}

/** The first line after `first`, the other non-empty lines after `rest`. */
function indent(text: string, first: string, rest: string): string {
  return text
    .split('\n')
    .map((line, index) => (index === 0 ? first + line : line === '' ? '' : rest + line))
    .join('\n');
}
