import type {
  BlockContent,
  Break,
  DefinitionContent,
  ListItem,
  Parent,
  PhrasingContent,
  Root,
  RootContent,
  TableCell,
  TableRow,
} from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown, type Handle } from 'mdast-util-to-markdown';
import { footnoteNumbersOf } from '../editor/footnotes';
import { hasHeaderRow, tableGrid, type GridSlot } from '../editor/table-grid';
import type { RichTextDoc, RichTextMark, RichTextNode } from '../schemas/richText';

/**
 * A document as Markdown (CommonMark + GFM), written by remark's serializer (mdast-util-to-markdown) from a
 * Markdown tree built here. The serializer escapes text that would read as syntax ("# not a heading",
 * "1. not a list"), fences code with more backticks than it holds, and keeps block structure inside list items,
 * so an exported file imports back as the same document (imports/commonmark.test.ts checks it on the
 * CommonMark specification's examples).
 *
 * Underline has no Markdown syntax: it is written as the editor's own `++underline++`, which the import reads.
 * Highlight, subscript and superscript are written as the HTML elements Markdown allows inline. Footnotes are
 * GFM's: `[^1]` in the text and `[^1]: the note` at the end, numbered in reading order.
 */

interface Underline extends Parent {
  type: 'underline';
  children: PhrasingContent[];
}

declare module 'mdast' {
  interface PhrasingContentMap {
    underline: Underline;
  }
  interface RootContentMap {
    underline: Underline;
  }
}

const underline: Handle = (node: Underline, _parent, state, info) => {
  const exit = state.enter('emphasis');
  const tracker = state.createTracker(info);
  let value = tracker.move('++');
  value += tracker.move(state.containerPhrasing(node, { before: '+', after: '+', ...tracker.current() }));
  value += tracker.move('++');
  exit();
  return value;
};

/** Marks a Markdown file can carry, the ones that wrap others first when their runs are equally long. */
const WRAPPING_MARKS = [
  'link',
  'bold',
  'italic',
  'strike',
  'underline',
  'highlight',
  'subscript',
  'superscript',
];
const HTML_MARKS: Record<string, string> = { highlight: 'mark', subscript: 'sub', superscript: 'sup' };

function sameMark(a: RichTextMark, b: RichTextMark): boolean {
  if (a.type !== b.type) return false;
  if (a.type !== 'link') return true;
  return a.attrs?.href === b.attrs?.href && (a.attrs?.title ?? null) === (b.attrs?.title ?? null);
}

function carries(node: RichTextNode, mark: RichTextMark): boolean {
  return (node.marks ?? []).some((other) => sameMark(other, mark));
}

/**
 * ProseMirror keeps marks flat on each text node; Markdown nests them. Of the marks a node carries that are not
 * open yet, the one whose run of following nodes is longest wraps first, so `**bold _both_**` stays one strong
 * span rather than three.
 */
function phrasing(nodes: RichTextNode[], open: RichTextMark[] = []): PhrasingContent[] {
  const result: PhrasingContent[] = [];
  let index = 0;
  while (index < nodes.length) {
    const node = nodes[index]!;
    let best: { mark: RichTextMark; end: number } | undefined;
    for (const type of WRAPPING_MARKS) {
      const mark = node.marks?.find((candidate) => candidate.type === type);
      if (!mark || open.some((opened) => sameMark(opened, mark))) continue;
      let end = index + 1;
      while (end < nodes.length && carries(nodes[end]!, mark)) end++;
      if (!best || end > best.end) best = { mark, end };
    }
    if (!best) {
      result.push(...leaf(node));
      index++;
      continue;
    }
    const inner = phrasing(nodes.slice(index, best.end), [...open, best.mark]);
    result.push(...wrap(best.mark, inner));
    index = best.end;
  }
  return result;
}

/** The numbers of the document being written (set by documentToMarkdownBody, which runs synchronously). */
let footnoteNumbers = new Map<string, number>();

function footnoteLabel(id: unknown): string {
  return String(footnoteNumbers.get(String(id)) ?? 0);
}

function leaf(node: RichTextNode): PhrasingContent[] {
  if (node.type === 'hardBreak') return [{ type: 'break' } satisfies Break];
  if (node.type === 'footnoteReference') {
    const label = footnoteLabel(node.attrs?.id);
    return [{ type: 'footnoteReference', identifier: label, label }];
  }
  if (node.type !== 'text') return node.content ? phrasing(node.content) : [];
  const value = node.text ?? '';
  if (node.marks?.some((mark) => mark.type === 'code')) return [{ type: 'inlineCode', value }];
  return [{ type: 'text', value }];
}

/** Spaces at the edges of emphasis would stop it from being emphasis: they move outside it. */
function wrap(mark: RichTextMark, children: PhrasingContent[]): PhrasingContent[] {
  if (mark.type === 'link') {
    const title = typeof mark.attrs?.title === 'string' ? mark.attrs.title : null;
    return [{ type: 'link', url: String(mark.attrs?.href ?? ''), title, children }];
  }
  const [before, inner, after] = hoistEdgeSpaces(children);
  if (inner.length === 0) return children;
  let wrapped: PhrasingContent[];
  if (mark.type in HTML_MARKS) {
    const tag = HTML_MARKS[mark.type]!;
    wrapped = [{ type: 'html', value: `<${tag}>` }, ...inner, { type: 'html', value: `</${tag}>` }];
  } else if (mark.type === 'bold') wrapped = [{ type: 'strong', children: inner }];
  else if (mark.type === 'italic') wrapped = [{ type: 'emphasis', children: inner }];
  else if (mark.type === 'strike') wrapped = [{ type: 'delete', children: inner }];
  else wrapped = [{ type: 'underline', children: inner }];
  return [...before, ...wrapped, ...after];
}

function hoistEdgeSpaces(
  children: PhrasingContent[],
): [PhrasingContent[], PhrasingContent[], PhrasingContent[]] {
  const inner = [...children];
  const before: PhrasingContent[] = [];
  const after: PhrasingContent[] = [];
  const first = inner[0];
  if (first?.type === 'text') {
    const leading = /^\s+/u.exec(first.value)?.[0] ?? '';
    if (leading) {
      before.push({ type: 'text', value: leading });
      const rest = first.value.slice(leading.length);
      if (rest) inner[0] = { type: 'text', value: rest };
      else inner.shift();
    }
  }
  const last = inner.at(-1);
  if (last?.type === 'text') {
    const trailing = /\s+$/u.exec(last.value)?.[0] ?? '';
    if (trailing) {
      after.push({ type: 'text', value: trailing });
      const rest = last.value.slice(0, -trailing.length);
      if (rest) inner[inner.length - 1] = { type: 'text', value: rest };
      else inner.pop();
    }
  }
  return [before, inner, after];
}

function textOf(node: RichTextNode): string {
  return node.text ?? (node.content ?? []).map(textOf).join('');
}

function blocks(nodes: RichTextNode[] | undefined): (BlockContent | DefinitionContent)[] {
  return (nodes ?? []).flatMap(block);
}

/**
 * An item holding more than a paragraph and its sub-list is written loose (blank lines between its blocks), as
 * people write such items: a paragraph after a code block in a tight item is misread by some parsers.
 */
function listItem(node: RichTextNode, checked: boolean | null): ListItem {
  const children = blocks(node.content);
  const spread = children.length > 2 || (children.length === 2 && children[1]!.type !== 'list');
  return { type: 'listItem', spread, checked, children };
}

function list(ordered: boolean, items: ListItem[], start?: number): BlockContent {
  return { type: 'list', ordered, start, spread: items.some((item) => item.spread), children: items };
}

/**
 * A GFM cell is one line: the cell's paragraphs are joined by <br>. GFM has no merged cells: a merged cell's
 * text sits in its top-left slot and the slots it covers (columns and rows) stay empty, so every other cell
 * keeps its column.
 */
function tableRow(slots: GridSlot[]): TableRow {
  const cells = slots.map((cell): TableCell => {
    const lines = (cell?.content ?? []).map((paragraph) => phrasing(paragraph.content ?? []));
    const children = lines.flatMap((line, index): PhrasingContent[] =>
      index === 0 ? line : [{ type: 'html', value: '<br>' }, ...line],
    );
    return { type: 'tableCell', children };
  });
  return { type: 'tableRow', children: cells };
}

function block(node: RichTextNode): (BlockContent | DefinitionContent)[] {
  switch (node.type) {
    case 'paragraph':
      return [{ type: 'paragraph', children: phrasing(node.content ?? []) }];
    case 'heading': {
      const depth = Math.min(Math.max(Number(node.attrs?.level ?? 1), 1), 6) as 1 | 2 | 3 | 4 | 5 | 6;
      return [{ type: 'heading', depth, children: phrasing(node.content ?? []) }];
    }
    case 'blockquote':
      return [{ type: 'blockquote', children: blocks(node.content) }];
    case 'bulletList':
      return [
        list(
          false,
          (node.content ?? []).map((item) => listItem(item, null)),
        ),
      ];
    case 'orderedList': {
      const start = Number(node.attrs?.start ?? 1);
      const items = (node.content ?? []).map((item) => listItem(item, null));
      return [list(true, items, Number.isInteger(start) ? start : 1)];
    }
    case 'taskList':
      return [
        list(
          false,
          (node.content ?? []).map((item) => listItem(item, item.attrs?.checked === true)),
        ),
      ];
    case 'codeBlock': {
      const lang =
        typeof node.attrs?.language === 'string' && node.attrs.language ? node.attrs.language : null;
      return [{ type: 'code', lang, value: textOf(node) }];
    }
    case 'horizontalRule':
      return [{ type: 'thematicBreak' }];
    case 'image': {
      const url = typeof node.attrs?.src === 'string' ? node.attrs.src : '';
      const alt = typeof node.attrs?.alt === 'string' ? node.attrs.alt : '';
      const title = typeof node.attrs?.title === 'string' ? node.attrs.title : null;
      return [{ type: 'paragraph', children: [{ type: 'image', url, alt, title }] }];
    }
    case 'table': {
      const grid = tableGrid(node);
      if (grid.length === 0) return [];
      // GFM's first row is its header: a table without a header row gets an empty one.
      const rows = hasHeaderRow(node) ? grid : [grid[0]!.map(() => null), ...grid];
      const align = grid[0]!.map((_, column) => {
        const value = grid.map((row) => row[column]?.attrs?.align).find((a) => typeof a === 'string');
        return value === 'left' || value === 'right' || value === 'center' ? value : null;
      });
      return [{ type: 'table', align, children: rows.map(tableRow) }];
    }
    case 'footnotes':
      return (node.content ?? []).map((note) => {
        const label = footnoteLabel(note.attrs?.id);
        return {
          type: 'footnoteDefinition',
          identifier: label,
          label,
          children: blocks(note.content) as BlockContent[],
        };
      });
    default: {
      // A node without a Markdown form keeps its text.
      const content = node.content ?? [];
      const inline = content.some((child) => child.type === 'text' || child.type === 'hardBreak');
      return inline ? [{ type: 'paragraph', children: phrasing(content) }] : blocks(content);
    }
  }
}

/** The document's body as Markdown (no title), ending without a newline. */
export function documentToMarkdownBody(doc: RichTextDoc): string {
  footnoteNumbers = footnoteNumbersOf(doc);
  const root: Root = { type: 'root', children: blocks(doc.content) as RootContent[] };
  return toMarkdown(root, {
    bullet: '-',
    bulletOther: '*',
    emphasis: '_',
    strong: '*',
    fence: '`',
    fences: true,
    rule: '-',
    listItemIndent: 'one',
    handlers: { underline },
    extensions: [gfmToMarkdown()],
  }).trimEnd();
}
