import { DOMParser as ProseMirrorDOMParser } from '@tiptap/pm/model';
import { Window } from 'happy-dom';
import sanitizeHtml from 'sanitize-html';
import {
  ALLOWED_LINK_PROTOCOLS,
  HEADING_LEVELS,
  HIGHLIGHT_COLORS,
  MAX_IMAGE_CAPTION_LENGTH,
  MAX_TABLE_CELL_SPAN,
  MAX_TABLE_COLUMN_WIDTH_PX,
} from '../../shared/constants';
import { getEditorSchema } from '../../shared/editor/extensions';
import { STYLE_VALUE_PATTERNS } from '../../shared/editor/html-policy';
import type { ImportDegradation } from '../../shared/schemas/imports';
import { CAPTION_CLASS } from './docx-to-html';
import {
  skippedPicturesMessage,
  IMPORT_MAX_HTML_DEPTH,
  IMPORT_MAX_HTML_ELEMENTS,
  ImportTooComplexError,
} from './import-limits';

/**
 * HTML from any source (a file, Markdown or Word converted to HTML) → a rich-text tree of the editor
 * schema. Three steps: an allow-list sanitizer (scripts, handlers, frames and unknown tags go; text stays),
 * degradation of what the schema has no node for (reported), and the editor schema's own HTML parser.
 */

const MAX_HEADING_LEVEL = Math.max(...HEADING_LEVELS);

export type Degradations = Map<ImportDegradation['kind'], number>;

const bump = (map: Degradations, kind: ImportDegradation['kind'], by = 1) =>
  map.set(kind, (map.get(kind) ?? 0) + by);

// What the editor produces, plus what we know how to degrade. Everything else is unwrapped (its text
// kept) by sanitize-html; script/style/textarea/noscript and similar are dropped whole.
const INPUT_ALLOWED_TAGS = [
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'hr',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'strike',
  'del',
  'a',
  'span',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'caption',
  'img',
  'mark',
  'sub',
  'sup',
  'label',
  'input',
];

// The values the editor can hold (the rendered-HTML policy's), plus the inline formatting degraded to marks.
const STYLE_RULES = {
  'text-align': [STYLE_VALUE_PATTERNS.textAlign],
  color: [STYLE_VALUE_PATTERNS.color],
  'font-size': [STYLE_VALUE_PATTERNS.fontSize],
  'font-family': [STYLE_VALUE_PATTERNS.fontFamily],
  'font-weight': [/^(bold|[6-9]00)$/],
  'font-style': [/^italic$/],
  'text-decoration': [/^(underline|line-through)$/],
};

// Their values are checked (and out-of-range ones dropped) in `degrade`, before the schema's parser reads them.
const TABLE_CELL_ATTRIBUTES = ['colspan', 'rowspan', 'colwidth', 'style', 'align'];

const ALLOWED_TAG_SET = new Set(INPUT_ALLOWED_TAGS);
// Page furniture and active content: removed without being worth a mention to the writer.
const UNREMARKABLE_TAGS = new Set([
  'html',
  'head',
  'body',
  'meta',
  'link',
  'title',
  'style',
  'script',
  'noscript',
  'template',
  'base',
  'small',
  'abbr',
  'cite',
  'font',
  'center',
  'nav',
  'aside',
  'figure',
  'figcaption',
  'colgroup',
  'col',
]);

/** `unsupported` counts elements with no equivalent that were reduced to their text (e.g. video, details). */
function sanitizeImportedHtml(html: string, found?: Degradations): string {
  let depth = 0;
  let elements = 0;
  return sanitizeHtml(html, {
    onOpenTag: (name: string) => {
      depth++;
      if (++elements > IMPORT_MAX_HTML_ELEMENTS) {
        throw new ImportTooComplexError(`The file has more than ${IMPORT_MAX_HTML_ELEMENTS} elements.`);
      }
      if (depth > IMPORT_MAX_HTML_DEPTH) {
        throw new ImportTooComplexError(
          `The file nests elements more than ${IMPORT_MAX_HTML_DEPTH} levels deep.`,
        );
      }
      if (found && !ALLOWED_TAG_SET.has(name) && !UNREMARKABLE_TAGS.has(name)) bump(found, 'unsupported');
    },
    onCloseTag: () => {
      depth--;
    },
    allowedTags: INPUT_ALLOWED_TAGS,
    allowedAttributes: {
      a: ['href', 'title'],
      // `src` only for a picture the import brought in (checked against its placeholders in `degrade`).
      img: ['alt', 'src'],
      ol: ['start', 'type'],
      code: ['class'],
      span: ['style', 'data-ai-suggestion'],
      p: ['style', 'class'],
      h1: ['style'],
      h2: ['style'],
      h3: ['style'],
      h4: ['style'],
      h5: ['style'],
      h6: ['style'],
      ul: ['data-type'],
      // Footnotes (src/shared/editor/footnotes.ts): a note's id pairs it with its reference's link.
      li: ['data-type', 'data-checked', 'id', 'data-footnote'],
      sup: ['data-footnote-ref'],
      section: ['class', 'data-footnotes'],
      div: ['class'],
      input: ['type', 'checked'],
      mark: [{ name: 'data-color', multiple: false, values: HIGHLIGHT_COLORS.map((color) => color.value) }],
      td: TABLE_CELL_ATTRIBUTES,
      th: TABLE_CELL_ATTRIBUTES,
    },
    allowedClasses: { p: [CAPTION_CLASS] },
    allowedStyles: { '*': STYLE_RULES },
    allowedSchemes: [...ALLOWED_LINK_PROTOCOLS],
    allowProtocolRelative: false,
    // The content of these is never text a writer meant to keep.
    nonTextTags: [
      'script',
      'style',
      'textarea',
      'option',
      'noscript',
      'template',
      'title',
      'head',
      'svg',
      'math',
    ],
  });
}

type HappyDocument = InstanceType<typeof Window>['document'];
type HappyElement = ReturnType<HappyDocument['createElement']>;

/** Rewrites, in place, what the schema cannot hold into the nearest thing it can. */
function degrade(
  document: HappyDocument,
  root: HappyElement,
  found: Degradations,
  pictures: ReadonlySet<string>,
): void {
  for (const heading of [...root.querySelectorAll('h4, h5, h6')]) {
    const replacement = document.createElement(`h${MAX_HEADING_LEVEL}`);
    const style = heading.getAttribute('style');
    if (style) replacement.setAttribute('style', style);
    while (heading.firstChild) replacement.appendChild(heading.firstChild);
    heading.replaceWith(replacement);
    bump(found, 'heading_level');
  }
  // A caption has no place in the schema's table: it becomes the paragraph before the table.
  for (const caption of [...root.querySelectorAll('caption')]) {
    const table = caption.closest('table');
    const text = (caption.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (table && text) {
      const p = document.createElement('p');
      p.textContent = text;
      table.before(p);
    }
    caption.remove();
  }
  for (const cell of [...root.querySelectorAll('td, th')]) boundCell(cell as HappyElement);
  markTasks(root);
  for (const image of [...root.querySelectorAll('img')]) {
    const src = image.getAttribute('src') ?? '';
    if (pictures.has(src)) {
      // A picture the import stores: kept, with a caption that follows it (Word's "caption" paragraph).
      const holder =
        image.parentElement?.tagName === 'P' && image.parentElement.children.length === 1
          ? image.parentElement
          : image;
      const next = holder.nextElementSibling;
      // The picture is a block of its own: the paragraph that only held it would stay behind empty.
      if (holder !== image) holder.replaceWith(image);
      if (next?.tagName === 'P' && next.classList.contains(CAPTION_CLASS)) {
        const caption = (next.textContent ?? '')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, MAX_IMAGE_CAPTION_LENGTH);
        if (caption) image.setAttribute('title', caption);
        next.remove();
      }
      continue;
    }
    const alt = (image.getAttribute('alt') ?? '').trim();
    if (alt) image.replaceWith(document.createTextNode(alt));
    else image.remove();
    bump(found, 'image');
  }
  // Captions of nothing stay as the text they are.
  for (const caption of [...root.querySelectorAll(`p.${CAPTION_CLASS}`)]) caption.removeAttribute('class');
}

/** Spans and widths out of bounds are dropped (the cell keeps its text) rather than refusing the file. */
function boundCell(cell: HappyElement): void {
  for (const name of ['colspan', 'rowspan']) {
    const value = cell.getAttribute(name);
    if (value === null) continue;
    const number = Number(value);
    if (Number.isInteger(number) && number >= 1) {
      cell.setAttribute(name, String(Math.min(number, MAX_TABLE_CELL_SPAN)));
    } else cell.removeAttribute(name);
  }
  const widths = cell.getAttribute('colwidth');
  if (
    widths !== null &&
    !widths.split(',').every((width) => /^\d{1,6}$/.test(width) && Number(width) <= MAX_TABLE_COLUMN_WIDTH_PX)
  ) {
    cell.removeAttribute('colwidth');
  }
}

const TASK_BOX = /^\s*([☐☒☑])\s?/u;

/**
 * Task lists arrive in three shapes: the editor's own (`ul[data-type=taskList]`), GFM's (an item opening
 * with a checkbox input) and Word's through our export (an item opening with ☐ or ☒). The last two become
 * the first; a list where only some items are tasks becomes a task list all the same.
 */
function markTasks(root: HappyElement): void {
  for (const input of [...root.querySelectorAll('input')]) {
    const item = input.closest('li');
    const isBox = (input.getAttribute('type') ?? '').toLowerCase() === 'checkbox';
    if (item && isBox && item.getAttribute('data-type') !== 'taskItem') {
      item.setAttribute('data-type', 'taskItem');
      item.setAttribute('data-checked', String(input.hasAttribute('checked')));
    }
    const label = input.parentElement?.tagName === 'LABEL' ? input.parentElement : null;
    input.remove();
    if (label && (label.textContent ?? '').trim() === '') label.remove();
  }
  for (const item of [...root.querySelectorAll('li')]) {
    const first = firstTextNode(item);
    const match = first ? TASK_BOX.exec(first.textContent ?? '') : null;
    if (!first || !match) continue;
    first.textContent = (first.textContent ?? '').slice(match[0].length);
    item.setAttribute('data-type', 'taskItem');
    item.setAttribute('data-checked', String(match[1] !== '☐'));
  }
  for (const item of [...root.querySelectorAll('li[data-type="taskItem"]')]) {
    const list = item.parentElement;
    if (list?.tagName !== 'UL' && list?.tagName !== 'OL') continue;
    if (list.tagName === 'OL') {
      const ul = item.ownerDocument.createElement('ul');
      while (list.firstChild) ul.appendChild(list.firstChild);
      list.replaceWith(ul);
      ul.setAttribute('data-type', 'taskList');
    } else list.setAttribute('data-type', 'taskList');
  }
  for (const list of [...root.querySelectorAll('ul[data-type="taskList"]')]) {
    for (const item of [...list.children]) {
      if (item.tagName !== 'LI') continue;
      item.setAttribute('data-type', 'taskItem');
      if (item.getAttribute('data-checked') !== 'true') item.setAttribute('data-checked', 'false');
    }
  }
}

/** The first non-blank text of an element, not looking into nested lists. */
function firstTextNode(element: HappyElement): HappyElement['firstChild'] | null {
  for (const child of [...element.childNodes]) {
    if (child.nodeType === 3) {
      if ((child.textContent ?? '').trim() !== '') return child;
      continue;
    }
    if (child.nodeType !== 1) continue;
    const tag = (child as HappyElement).tagName;
    if (tag === 'UL' || tag === 'OL') return null;
    const found = firstTextNode(child as HappyElement);
    if (found) return found;
    if ((child.textContent ?? '').trim() !== '') return null;
  }
  return null;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const MESSAGES: Record<ImportDegradation['kind'], (count: number) => string> = {
  heading_level: (n) =>
    `${plural(n, 'heading', 'headings')} below level ${MAX_HEADING_LEVEL} became level ${MAX_HEADING_LEVEL}`,
  image: (n) => `${plural(n, 'image', 'images')} became ${n === 1 ? 'its' : 'their'} alt text`,
  image_skipped: skippedPicturesMessage,
  unsupported: (n) =>
    `${plural(n, 'element', 'elements')} the editor has no equivalent for became plain text`,
};

export function describeDegradations(found: Degradations): ImportDegradation[] {
  return [...found].map(([kind, count]) => ({ kind, count, message: MESSAGES[kind](count) }));
}

export interface ParsedHtml {
  /** ProseMirror JSON of the editor schema (still to go through the content validator). */
  json: unknown;
  degraded: Degradations;
}

/**
 * `pictures`: the placeholder addresses of pictures the import stores (docx-to-html.ts); an <img> with one of
 * them is kept, every other becomes its alt text.
 */
export function htmlToDocumentJson(
  html: string,
  degraded: Degradations = new Map(),
  pictures: ReadonlySet<string> = new Set(),
): ParsedHtml {
  const window = new Window({
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
      disableComputedStyleRendering: true,
    },
  });
  try {
    const document = window.document;
    const body = document.createElement('div');
    body.innerHTML = sanitizeImportedHtml(html, degraded);
    degrade(document, body, degraded, pictures);
    const parser = ProseMirrorDOMParser.fromSchema(getEditorSchema());
    const json = parser.parse(body as unknown as Node).toJSON();
    return { json, degraded };
  } finally {
    window.happyDOM.abort();
    void window.happyDOM.close();
  }
}
