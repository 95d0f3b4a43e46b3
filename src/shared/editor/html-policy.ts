import type { IOptions as SanitizeHtmlOptions } from 'sanitize-html';
import type { Config as DomPurifyConfig, DOMPurify } from 'dompurify';
import {
  ALLOWED_LINK_PROTOCOLS,
  HIGHLIGHT_COLORS,
  IMAGE_ALIGNMENTS,
  IMAGE_WIDTHS,
  LINK_REL,
  LINK_TARGET,
  TEXT_ALIGNMENTS,
} from '../constants';
import { FOOTNOTE_ID_PATTERN } from './footnotes';
import { IMAGE_SRC_PATTERN } from './image-src';
import { isSafeHref } from './links';
import { UUID_PATTERN } from '../uuid';
import { COMMENT_ANCHOR_CLASS, COMMENT_THREAD_ATTRIBUTE } from './comment-mark';

/**
 * THE policy for HTML rendered from stored content (the shared page, HTML exports in the browser and on
 * the server): exactly the elements, attributes, classes and style values the editor schema renders, links
 * only with whitelisted protocols and always opening in a new tab with the safe rel. The server applies it
 * with sanitize-html, the browser with DOMPurify; both are configured from this module, so the two cannot
 * drift (html-policy.test.ts runs both on hostile input and requires the same result). The style value
 * rules are also the content validator's (validate.ts), so what may be stored is what may be rendered.
 */

export const STYLE_VALUE_PATTERNS = {
  color: /^(#[0-9a-f]{3,8}|rgba?\(\s*[\d.%\s,/]+\)|hsla?\(\s*[\d.%\s,/deg]+\)|[a-z]{3,30})$/i,
  fontSize: /^\d{1,3}(\.\d{1,3})?(px|pt|em|rem|%)$/,
  fontFamily: /^[\p{L}\p{N}\s,'"._-]{1,200}$/u,
  textAlign: new RegExp(`^(${TEXT_ALIGNMENTS.join('|')})$`),
  /** The hue of a tracked change's author colour (suggestion-marks.ts). */
  suggestionHue: /^\d{1,3}$/,
  /** A table's or a column's width as the table extension renders it. */
  length: /^\d{1,6}px$/,
  highlight: new RegExp(`^(${HIGHLIGHT_COLORS.map((color) => color.value).join('|')})$`, 'i'),
} as const;

/** CSS property → the values it may take. */
const STYLE_RULES: Record<string, RegExp> = {
  'text-align': STYLE_VALUE_PATTERNS.textAlign,
  color: STYLE_VALUE_PATTERNS.color,
  'font-size': STYLE_VALUE_PATTERNS.fontSize,
  'font-family': STYLE_VALUE_PATTERNS.fontFamily,
  '--suggestion-hue': STYLE_VALUE_PATTERNS.suggestionHue,
  width: STYLE_VALUE_PATTERNS.length,
  'min-width': STYLE_VALUE_PATTERNS.length,
  'background-color': STYLE_VALUE_PATTERNS.highlight,
};

const SUGGESTION_ATTRIBUTES = [
  'class',
  'style',
  'data-suggestion-id',
  'data-author-id',
  'data-author-name',
  'data-source',
  'data-created-at',
];

/** Element → the attributes it may carry. */
const RENDERED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  p: ['style'],
  h1: ['style'],
  h2: ['style'],
  h3: ['style'],
  ul: ['data-type'],
  ol: ['start', 'type'],
  li: ['data-type', 'data-checked', 'id', 'data-footnote'],
  blockquote: [],
  pre: [],
  code: ['class'],
  hr: [],
  br: [],
  strong: [],
  em: [],
  u: [],
  s: [],
  a: ['href', 'target', 'rel', 'id', 'class', 'aria-label'],
  // A comment thread's anchor (comment-mark.ts) keeps its id, so a reader's page can show the thread.
  span: ['style', 'class', 'data-ai-suggestion', COMMENT_THREAD_ATTRIBUTE],
  ins: SUGGESTION_ATTRIBUTES,
  del: SUGGESTION_ATTRIBUTES,
  mark: ['style', 'data-color'],
  sub: [],
  // A footnote reference (footnotes.ts); the notes are a section holding an ordered list.
  sup: ['class', 'data-footnote-ref'],
  section: ['class', 'data-footnotes'],
  // A task item: its checkbox (always disabled in rendered HTML) in a label, the text in a div.
  label: [],
  input: ['type', 'checked', 'disabled'],
  div: ['class'],
  table: ['style'],
  colgroup: [],
  col: ['style'],
  thead: [],
  tbody: [],
  tr: [],
  th: ['colspan', 'rowspan', 'colwidth', 'style'],
  td: ['colspan', 'rowspan', 'colwidth', 'style'],
  img: ['src', 'alt', 'title', 'data-width', 'data-align'],
  // A captioned image.
  figure: [],
  figcaption: [],
};
const RENDERED_TAGS = Object.keys(RENDERED_ATTRIBUTES);

/** Element → the class names it may carry. */
const CLASS_RULES: Record<string, RegExp> = {
  code: /^language-[A-Za-z0-9_+#.-]{1,64}$/,
  ins: /^tracked-(change|insertion)$/,
  del: /^tracked-(change|deletion)$/,
  sup: /^footnote-ref$/,
  section: /^footnotes$/,
  a: /^footnote-backref$/,
  div: /^footnote-body$/,
  span: new RegExp(`^${COMMENT_ANCHOR_CLASS}$`),
};

/** Attribute values other than free text: what each may be, by attribute name. */
const VALUE_RULES: Record<string, RegExp> = {
  'data-type': /^(taskList|taskItem)$/,
  'data-checked': /^(true|false)$/,
  'data-color': STYLE_VALUE_PATTERNS.highlight,
  colspan: /^\d{1,3}$/,
  rowspan: /^\d{1,3}$/,
  colwidth: /^\d{1,6}(,\d{1,6}){0,99}$/,
  type: /^[A-Za-z0-9-]{1,32}$/,
  start: /^\d{1,15}$/,
  // Only this server's image addresses: no tracking pixels, no data or javascript URLs.
  src: IMAGE_SRC_PATTERN,
  'data-width': new RegExp(`^(${IMAGE_WIDTHS.join('|')})$`),
  'data-align': new RegExp(`^(${IMAGE_ALIGNMENTS.join('|')})$`),
  // Footnote anchors (fn1, fnref1, fn-<id>, fnref-<id>): no other ids, so content cannot clobber the page's.
  id: /^fn(ref)?-?[A-Za-z0-9_-]{1,64}$/,
  'data-footnote-ref': FOOTNOTE_ID_PATTERN,
  'data-footnote': FOOTNOTE_ID_PATTERN,
  'data-footnotes': /^$/,
  'aria-label': /^Back to the text$/,
  [COMMENT_THREAD_ATTRIBUTE]: UUID_PATTERN,
};

/** A `style` attribute reduced to the declarations the policy allows ('' when none remain). */
export function filterStyle(style: string): string {
  const kept: string[] = [];
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (STYLE_RULES[property]?.test(value)) kept.push(`${property}: ${value}`);
  }
  return kept.join('; ');
}

function filterClasses(tag: string, classes: string): string {
  const rule = CLASS_RULES[tag];
  if (!rule) return '';
  return classes
    .split(/\s+/)
    .filter((name) => rule.test(name))
    .join(' ');
}

function allowsAttribute(tag: string, attribute: string): boolean {
  return RENDERED_ATTRIBUTES[tag]?.includes(attribute) ?? false;
}

function withValidValues(attribs: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(attribs).filter(([name, value]) => VALUE_RULES[name]?.test(value) ?? true),
  );
}

/** A footnote's link to its note or back (`#fn1`): it stays in the page, so it opens no new tab. */
function isInPageHref(href: string | undefined): boolean {
  return href !== undefined && /^#fn(ref)?-?[A-Za-z0-9_-]{1,64}$/.test(href);
}

/** A task's checkbox shows its state and cannot be changed outside the editor. */
const CHECKBOX_ATTRIBUTES = { type: 'checkbox', disabled: 'disabled' } as const;

/** sanitize-html options for the policy (the server). */
export function sanitizeHtmlOptions(): SanitizeHtmlOptions {
  return {
    allowedTags: RENDERED_TAGS,
    allowedAttributes: Object.fromEntries(
      Object.entries(RENDERED_ATTRIBUTES).map(([tag, attributes]) => [tag, [...attributes]]),
    ),

    allowedClasses: Object.fromEntries(Object.entries(CLASS_RULES).map(([tag, rule]) => [tag, [rule]])),
    allowedStyles: {
      '*': Object.fromEntries(Object.entries(STYLE_RULES).map(([property, rule]) => [property, [rule]])),
    },
    allowedSchemes: [...ALLOWED_LINK_PROTOCOLS],
    allowProtocolRelative: false,
    // An image whose address the policy refused shows nothing: the element goes too.
    exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
    transformTags: {
      '*': (tagName, attribs) => ({ tagName, attribs: withValidValues(attribs) }),
      a: (tagName, attribs) => {
        const { href, target: _target, rel: _rel, ...rest } = withValidValues(attribs);
        return {
          tagName,
          attribs: {
            ...rest,
            ...(href !== undefined && isSafeHref(href) ? { href } : {}),
            ...(isInPageHref(href) ? {} : { target: LINK_TARGET, rel: LINK_REL }),
          },
        };
      },
      input: (tagName, attribs) => ({
        tagName,
        attribs: { ...(attribs.checked !== undefined ? { checked: 'checked' } : {}), ...CHECKBOX_ATTRIBUTES },
      }),
    },
  };
}

const configuredPurifiers = new WeakSet<DOMPurify>();

/**
 * A sanitizer applying the policy with the given DOMPurify instance (the browser). `images: false` for HTML
 * that is not a document (an AI answer): it has no image of its own to show.
 */
export function domPurifySanitizer(
  purify: DOMPurify,
  { images = true }: { images?: boolean } = {},
): (html: string) => string {
  if (!configuredPurifiers.has(purify)) {
    configuredPurifiers.add(purify);
    purify.addHook('uponSanitizeAttribute', (node, data) => {
      const tag = node.nodeName.toLowerCase();
      if (!allowsAttribute(tag, data.attrName)) {
        data.keepAttr = false;
        return;
      }
      if (data.attrName === 'style') data.attrValue = filterStyle(data.attrValue);
      if (data.attrName === 'class') data.attrValue = filterClasses(tag, data.attrValue);
      if (data.attrName === 'href' && !isSafeHref(data.attrValue)) data.keepAttr = false;
      const rule = VALUE_RULES[data.attrName];
      if (rule && !rule.test(data.attrValue)) data.keepAttr = false;
      if ((data.attrName === 'style' || data.attrName === 'class') && data.attrValue === '')
        data.keepAttr = false;
    });
    purify.addHook('afterSanitizeAttributes', (node) => {
      // An image whose address the policy refused shows nothing: the element goes too.
      if (node.nodeName === 'IMG' && !node.hasAttribute('src')) {
        node.remove();
        return;
      }
      if (node.nodeName === 'INPUT') {
        const checked = node.hasAttribute('checked');
        for (const name of node.getAttributeNames()) node.removeAttribute(name);
        if (checked) node.setAttribute('checked', 'checked');
        for (const [name, value] of Object.entries(CHECKBOX_ATTRIBUTES)) node.setAttribute(name, value);
        return;
      }
      if (node.nodeName !== 'A') return;
      if (isInPageHref(node.getAttribute('href') ?? undefined)) {
        node.removeAttribute('target');
        node.removeAttribute('rel');
        return;
      }
      node.setAttribute('target', LINK_TARGET);
      node.setAttribute('rel', LINK_REL);
    });
  }
  const config: DomPurifyConfig = {
    ALLOWED_TAGS: RENDERED_TAGS,
    ALLOWED_ATTR: [...new Set(Object.values(RENDERED_ATTRIBUTES).flat())],
    ALLOW_DATA_ATTR: false,
    ...(images ? {} : { FORBID_TAGS: ['img'] }),
  };
  return (html) => purify.sanitize(html, config) as string;
}
