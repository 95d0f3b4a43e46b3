import { DOMParser as ProseMirrorDOMParser } from '@tiptap/pm/model';
import { Window } from 'happy-dom';
import sanitizeHtml from 'sanitize-html';
import { ALLOWED_LINK_PROTOCOLS, HEADING_LEVELS } from '../../shared/constants';
import { getEditorSchema } from '../../shared/editor/extensions';
import { STYLE_VALUE_PATTERNS } from '../../shared/editor/html-policy';
import type { ImportDegradation } from '../../shared/schemas/imports';
import { IMPORT_MAX_HTML_DEPTH, IMPORT_MAX_HTML_ELEMENTS, ImportTooComplexError } from './import-limits';

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
  'sup',
  'sub',
  'small',
  'mark',
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
      img: ['alt'],
      ol: ['start', 'type'],
      code: ['class'],
      span: ['style', 'data-ai-suggestion'],
      p: ['style'],
      h1: ['style'],
      h2: ['style'],
      h3: ['style'],
      h4: ['style'],
      h5: ['style'],
      h6: ['style'],
    },
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
function degrade(document: HappyDocument, root: HappyElement, found: Degradations): void {
  for (const heading of [...root.querySelectorAll('h4, h5, h6')]) {
    const replacement = document.createElement(`h${MAX_HEADING_LEVEL}`);
    const style = heading.getAttribute('style');
    if (style) replacement.setAttribute('style', style);
    while (heading.firstChild) replacement.appendChild(heading.firstChild);
    heading.replaceWith(replacement);
    bump(found, 'heading_level');
  }
  // Innermost tables first, so a nested table is already flat text when its outer one is.
  for (const table of [...root.querySelectorAll('table')].reverse()) {
    const paragraphs: HappyElement[] = [];
    const caption = table.querySelector('caption');
    if (caption?.textContent?.trim()) {
      const p = document.createElement('p');
      p.textContent = caption.textContent.trim();
      paragraphs.push(p);
    }
    for (const row of [...table.querySelectorAll('tr')]) {
      const cells = [...row.children].filter((cell) => cell.tagName === 'TD' || cell.tagName === 'TH');
      const texts = cells.map((cell) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim());
      if (texts.every((text) => text === '')) continue;
      const p = document.createElement('p');
      // A header row stays recognisable as one.
      if (cells.every((cell) => cell.tagName === 'TH')) {
        const strong = document.createElement('strong');
        strong.textContent = texts.join(' | ');
        p.appendChild(strong);
      } else {
        p.textContent = texts.join(' | ');
      }
      paragraphs.push(p);
    }
    table.replaceWith(...paragraphs);
    bump(found, 'table');
  }
  for (const image of [...root.querySelectorAll('img')]) {
    const alt = (image.getAttribute('alt') ?? '').trim();
    if (alt) image.replaceWith(document.createTextNode(alt));
    else image.remove();
    bump(found, 'image');
  }
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const MESSAGES: Record<ImportDegradation['kind'], (count: number) => string> = {
  heading_level: (n) =>
    `${plural(n, 'heading', 'headings')} below level ${MAX_HEADING_LEVEL} became level ${MAX_HEADING_LEVEL}`,
  table: (n) => `${plural(n, 'table', 'tables')} became paragraphs`,
  image: (n) => `${plural(n, 'image', 'images')} became ${n === 1 ? 'its' : 'their'} alt text`,
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

export function htmlToDocumentJson(html: string, degraded: Degradations = new Map()): ParsedHtml {
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
    degrade(document, body, degraded);
    const parser = ProseMirrorDOMParser.fromSchema(getEditorSchema());
    const json = parser.parse(body as unknown as Node).toJSON();
    return { json, degraded };
  } finally {
    window.happyDOM.abort();
    void window.happyDOM.close();
  }
}
