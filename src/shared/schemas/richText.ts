import { z } from 'zod';
import { ALLOWED_LINK_PROTOCOLS, HEADING_LEVELS, TEXT_ALIGNMENTS } from '../constants';

/**
 * The rich-text tree of SPEC §3, validated and sanitized in one pure pass. Used by the server on every
 * write of `content` and by the editor (isSafeHref / sanitizeHref for links).
 *
 * Rules (decisions are marked):
 * - Unknown node or mark types, and invalid values of known attributes, are refused (`ok: false` with a
 *   message naming the problem and where it is). The server answers 400.
 * - Unknown attribute KEYS are dropped, not refused (decision): the editor library may add attributes with
 *   default values that we don't store; dropping keeps round-trips working and the stored tree clean.
 *   Properties of a node other than type/attrs/content/marks/text are dropped too.
 * - A link whose href is not in ALLOWED_LINK_PROTOCOLS (and not relative) keeps its mark with href ''
 *   (decision: SPEC §5 says "blanked", and TipTap's Link renders a disallowed href as '' the same way).
 * - textStyle values end up inside a `style` attribute when rendered, so they must look like what they are
 *   (a colour, a font size, a font name): `red; background:url(...)` is refused.
 * - Structure: doc and blockquote/listItem hold blocks, lists hold listItems, paragraph/heading hold inline
 *   nodes (text, hardBreak), codeBlock holds plain text (its marks are dropped, as ProseMirror would),
 *   horizontalRule/hardBreak/text are leaves. The empty document `{ type: 'doc', content: [] }` is valid.
 * - Depth is capped (MAX_RICH_TEXT_DEPTH) and so is the number of nodes (MAX_RICH_TEXT_NODES); the walk is
 *   iterative, so a hostile tree cannot overflow the stack. A node carries at most MAX_MARKS_PER_NODE marks;
 *   a repeated mark type keeps the last one (ProseMirror's rule).
 */

export const MAX_RICH_TEXT_DEPTH = 64;
export const MAX_RICH_TEXT_NODES = 100_000;
export const MAX_MARKS_PER_NODE = 16;
export const MAX_HREF_LENGTH = 8_192;
const MAX_SHORT_ATTR_LENGTH = 256;

export interface RichTextMark {
  type: string;
  attrs?: Record<string, unknown>;
}

export interface RichTextNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: RichTextNode[];
  marks?: RichTextMark[];
  text?: string;
}

export interface RichTextDoc {
  type: 'doc';
  content: RichTextNode[];
}

export type SanitizeResult = { ok: true; doc: RichTextDoc } | { ok: false; message: string };

export const EMPTY_DOC: RichTextDoc = Object.freeze({ type: 'doc', content: [] }) as RichTextDoc;

/** A new empty document (a fresh object each time, safe to mutate). */
export function emptyDoc(): RichTextDoc {
  return { type: 'doc', content: [] };
}

// ---------------------------------------------------------------------------------------------------------
// Links

// Characters browsers ignore or strip inside URLs (C0 controls, spaces, NBSP and other Unicode spaces):
// `java\nscript:` and ` javascript:` are still javascript: to a browser. Same set as DOMPurify/TipTap.
// eslint-disable-next-line no-control-regex
const URL_IGNORED_CHARS = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000\uFEFF]/g;
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const NAMED_ENTITIES: Record<string, string> = {
  colon: ':',
  tab: '\t',
  newline: '\n',
  nbsp: '\u00a0',
  amp: '&',
  sol: '/',
  lpar: '(',
  rpar: ')',
  period: '.',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  num: '#',
  percnt: '%',
  excl: '!',
  quest: '?',
  equals: '=',
  plus: '+',
  comma: ',',
  semi: ';',
};
const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi;
const ALLOWED_PROTOCOLS = new Set<string>(ALLOWED_LINK_PROTOCOLS);

function decodeEntities(value: string): string {
  return value.replace(ENTITY, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/**
 * True when a link may point there: an allowed scheme (SPEC §5: http, https, ftp, ftps, mailto, tel, callto,
 * sms, cid, xmpp) or a relative reference (`/x`, `#a`, `?q`, `page.html`, `//host/x`). The scheme is read the
 * way a browser would after HTML-entity decoding and removal of whitespace and control characters, so
 * `JaVaScRiPt:`, ` javascript:`, `java\nscript:` and `javascript&colon;` are all refused. The empty string is
 * safe (it links nowhere).
 */
export function isSafeHref(href: string): boolean {
  if (href.length > MAX_HREF_LENGTH) return false;
  let value = href;
  // Entities can be nested (`&amp;colon;`); a few rounds settle every realistic case.
  for (let round = 0; round < 3 && value.includes('&'); round++) {
    const decoded = decodeEntities(value);
    if (decoded === value) break;
    value = decoded;
  }
  value = value.replace(URL_IGNORED_CHARS, '');
  const scheme = SCHEME.exec(value);
  if (!scheme) return true; // relative reference
  return ALLOWED_PROTOCOLS.has(scheme[1]!.toLowerCase());
}

/** The href itself when safe (trimmed), otherwise '' (SPEC §5: "the href is blanked"). */
export function sanitizeHref(href: unknown): string {
  if (typeof href !== 'string') return '';
  return isSafeHref(href) ? href.trim() : '';
}

// ---------------------------------------------------------------------------------------------------------
// Attribute rules

type AttrCheck = (value: unknown) => { ok: true; value: unknown } | { ok: false; message: string };

const HEADING_LEVEL_SET = new Set<number>(HEADING_LEVELS);
const ALIGNMENT_SET = new Set<string>(TEXT_ALIGNMENTS);
const COLOR = /^(#[0-9a-f]{3,8}|rgba?\(\s*[\d.%\s,/]+\)|hsla?\(\s*[\d.%\s,/deg]+\)|[a-z]{3,30})$/i;
const FONT_SIZE = /^\d{1,3}(\.\d{1,3})?(px|pt|em|rem|%)$/;
const FONT_FAMILY = /^[\p{L}\p{N}\s,'"._-]{1,200}$/u;
const CODE_LANGUAGE = /^[A-Za-z0-9_+#.-]{1,64}$/;
const SUGGESTION_ID = /^[A-Za-z0-9_-]{1,128}$/;
const ORDERED_LIST_TYPE = /^[A-Za-z0-9-]{1,32}$/;

const ok = (value: unknown) => ({ ok: true as const, value });
const fail = (message: string) => ({ ok: false as const, message });

function nullable(check: AttrCheck): AttrCheck {
  return (value) => (value === null || value === undefined ? ok(null) : check(value));
}

function matching(pattern: RegExp, what: string): AttrCheck {
  return nullable((value) =>
    typeof value === 'string' && pattern.test(value) ? ok(value) : fail(`must be ${what}`),
  );
}

function shortString(what: string): AttrCheck {
  return nullable((value) =>
    typeof value === 'string' && value.length <= MAX_SHORT_ATTR_LENGTH
      ? ok(value)
      : fail(`must be ${what} of at most ${MAX_SHORT_ATTR_LENGTH} characters or null`),
  );
}

const textAlign: AttrCheck = nullable((value) =>
  typeof value === 'string' && ALIGNMENT_SET.has(value)
    ? ok(value)
    : fail(`must be one of ${TEXT_ALIGNMENTS.join(', ')} or null`),
);

const headingLevel: AttrCheck = (value) => {
  if (value === undefined || value === null) return ok(HEADING_LEVELS[0]);
  return typeof value === 'number' && HEADING_LEVEL_SET.has(value)
    ? ok(value)
    : fail(`must be one of ${HEADING_LEVELS.join(', ')}`);
};

const listStart: AttrCheck = nullable((value) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? ok(value)
    : fail('must be an integer of at least 0'),
);

const href: AttrCheck = (value) => {
  if (value === undefined || value === null) return ok('');
  if (typeof value !== 'string') return fail('must be a string');
  if (value.length > MAX_HREF_LENGTH) return fail(`must be at most ${MAX_HREF_LENGTH} characters`);
  return ok(sanitizeHref(value));
};

interface NodeRule {
  attrs?: Record<string, AttrCheck>;
  /** Which children are allowed: blocks, inline nodes, list items, plain text, or nothing (leaf). */
  content: 'block' | 'inline' | 'listItem' | 'text' | 'none';
  group: 'block' | 'inline' | 'listItem' | 'root';
}

const NODE_RULES: Record<string, NodeRule> = {
  doc: { content: 'block', group: 'root' },
  paragraph: { content: 'inline', group: 'block', attrs: { textAlign } },
  heading: { content: 'inline', group: 'block', attrs: { level: headingLevel, textAlign } },
  bulletList: { content: 'listItem', group: 'block' },
  orderedList: {
    content: 'listItem',
    group: 'block',
    attrs: { start: listStart, type: matching(ORDERED_LIST_TYPE, 'a list style such as 1, a, A, i or I') },
  },
  listItem: { content: 'block', group: 'listItem' },
  blockquote: { content: 'block', group: 'block' },
  codeBlock: {
    content: 'text',
    group: 'block',
    attrs: { language: matching(CODE_LANGUAGE, 'a language name (letters, digits, _ + # . -)') },
  },
  horizontalRule: { content: 'none', group: 'block' },
  hardBreak: { content: 'none', group: 'inline' },
  text: { content: 'none', group: 'inline' },
};

const MARK_RULES: Record<string, Record<string, AttrCheck> | undefined> = {
  bold: undefined,
  italic: undefined,
  underline: undefined,
  strike: undefined,
  code: undefined,
  link: {
    href,
    target: shortString('a string'),
    rel: shortString('a string'),
    class: shortString('a string'),
    title: shortString('a string'),
  },
  textStyle: {
    fontFamily: matching(FONT_FAMILY, 'a font name (letters, digits, spaces, quotes, commas)'),
    fontSize: matching(FONT_SIZE, 'a size such as 16px'),
    color: matching(COLOR, 'a colour such as #ef4444, rgb(…) or a colour name'),
    aiSuggestion: matching(SUGGESTION_ID, 'a suggestion id (letters, digits, _ and -)'),
  },
};

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class InvalidContent extends Error {}

/** Where a node or mark is, for messages; built only when something is wrong. */
function label(frame: Frame, nodeType: string, markIndex = -1, markType?: string): string {
  const node = `"${nodeType}" at ${pathOf(frame)}`;
  if (markIndex < 0) return node;
  return `${markType ? `"${markType.slice(0, 64)}" ` : ''}mark ${markIndex} of ${node}`;
}

function checkAttrs(
  rules: Record<string, AttrCheck> | undefined,
  attrs: unknown,
  frame: Frame,
  nodeType: string,
  markIndex = -1,
  markType?: string,
): Record<string, unknown> | undefined {
  if (attrs === undefined || attrs === null) {
    if (!rules) return undefined;
    attrs = {};
  }
  if (!isPlainObject(attrs))
    throw new InvalidContent(`attrs of ${label(frame, nodeType, markIndex, markType)} must be an object`);
  if (!rules) return undefined;
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const key in rules) {
    const raw = hasOwn(attrs, key) ? attrs[key] : undefined;
    const result = rules[key]!(raw);
    if (!result.ok)
      throw new InvalidContent(
        `${label(frame, nodeType, markIndex, markType)}: attribute "${key}" ${result.message}`,
      );
    // Absent attributes stay absent, except those with a real default (heading level, link href).
    if (raw !== undefined || result.value !== null) {
      out[key] = result.value;
      kept++;
    }
  }
  return kept > 0 ? out : undefined;
}

function sanitizeMarks(marks: unknown, frame: Frame, nodeType: string): RichTextMark[] | undefined {
  if (marks === undefined || marks === null) return undefined;
  if (!Array.isArray(marks)) throw new InvalidContent(`marks of ${label(frame, nodeType)} must be an array`);
  if (marks.length > MAX_MARKS_PER_NODE) {
    throw new InvalidContent(
      `${label(frame, nodeType)} has ${marks.length} marks; at most ${MAX_MARKS_PER_NODE} are allowed`,
    );
  }
  const out: RichTextMark[] = [];
  for (let i = 0; i < marks.length; i++) {
    const mark: unknown = marks[i];
    if (!isPlainObject(mark) || typeof mark.type !== 'string') {
      throw new InvalidContent(`${label(frame, nodeType, i)} must be an object with a string "type"`);
    }
    if (!hasOwn(MARK_RULES, mark.type)) {
      throw new InvalidContent(`unknown mark type "${mark.type.slice(0, 64)}" in ${label(frame, nodeType)}`);
    }
    const attrs = checkAttrs(MARK_RULES[mark.type], mark.attrs, frame, nodeType, i, mark.type);
    // A repeated type keeps the last one, in its position (at most MAX_MARKS_PER_NODE: a scan is cheap).
    for (let j = 0; j < out.length; j++) {
      if (out[j]!.type === mark.type) {
        out.splice(j, 1);
        break;
      }
    }
    out.push(attrs ? { type: mark.type, attrs } : { type: mark.type });
  }
  return out.length > 0 ? out : undefined;
}

interface Frame {
  input: unknown;
  /** Where the sanitized node goes. */
  target: RichTextNode[];
  index: number;
  parent: Frame | undefined;
  parentType: string | undefined;
  depth: number;
}

function pathOf(frame: Frame | undefined): string {
  const parts: string[] = [];
  for (let f = frame; f; f = f.parent) parts.push(f.parent ? `content[${f.index}]` : 'doc');
  return parts.reverse().join('.');
}

function allowedIn(parentRule: NodeRule, childType: string, childRule: NodeRule): boolean {
  switch (parentRule.content) {
    case 'block':
      return childRule.group === 'block';
    case 'inline':
      return childRule.group === 'inline';
    case 'listItem':
      return childRule.group === 'listItem';
    case 'text':
      return childType === 'text';
    case 'none':
      return false;
  }
}

function walk(root: unknown): RichTextDoc {
  const holder: RichTextNode[] = [];
  const stack: Frame[] = [
    { input: root, target: holder, index: 0, parent: undefined, parentType: undefined, depth: 1 },
  ];
  let count = 0;
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { input, parentType } = frame;
    if (++count > MAX_RICH_TEXT_NODES) {
      throw new InvalidContent(`the document has more than ${MAX_RICH_TEXT_NODES} nodes`);
    }
    if (!isPlainObject(input) || typeof input.type !== 'string') {
      throw new InvalidContent(`node at ${pathOf(frame)} must be an object with a string "type"`);
    }
    const type = input.type;
    if (!hasOwn(NODE_RULES, type)) {
      throw new InvalidContent(`unknown node type "${type.slice(0, 64)}" at ${pathOf(frame)}`);
    }
    const rule = NODE_RULES[type]!;
    if (parentType === undefined) {
      if (type !== 'doc') throw new InvalidContent(`the root node must be of type "doc", not "${type}"`);
    } else if (!allowedIn(NODE_RULES[parentType]!, type, rule)) {
      throw new InvalidContent(`"${type}" is not allowed inside "${parentType}" (at ${pathOf(frame)})`);
    }
    const node: RichTextNode = { type };
    const attrs = checkAttrs(rule.attrs, input.attrs, frame, type);
    if (attrs) node.attrs = attrs;

    if (rule.group === 'inline') {
      const marks = parentType === 'codeBlock' ? undefined : sanitizeMarks(input.marks, frame, type);
      if (marks) node.marks = marks;
    }
    if (type === 'text') {
      if (typeof input.text !== 'string' || input.text.length === 0) {
        throw new InvalidContent(`text node at ${pathOf(frame)} must have a non-empty "text" string`);
      }
      node.text = input.text;
    }

    const children = input.content;
    if (children !== undefined && children !== null && !Array.isArray(children)) {
      throw new InvalidContent(`content of ${label(frame, type)} must be an array`);
    }
    if (rule.content === 'none') {
      if (Array.isArray(children) && children.length > 0) {
        throw new InvalidContent(`${label(frame, type)} cannot have content`);
      }
    } else if (Array.isArray(children)) {
      const list: unknown[] = children;
      if (list.length > 0 && frame.depth >= MAX_RICH_TEXT_DEPTH) {
        throw new InvalidContent(`the document is nested deeper than ${MAX_RICH_TEXT_DEPTH} levels`);
      }
      if (count + list.length > MAX_RICH_TEXT_NODES) {
        throw new InvalidContent(`the document has more than ${MAX_RICH_TEXT_NODES} nodes`);
      }
      const out: RichTextNode[] = new Array<RichTextNode>(list.length);
      node.content = out;
      // Pushed in reverse so that errors are reported in document order.
      for (let i = list.length - 1; i >= 0; i--) {
        stack.push({
          input: list[i],
          target: out,
          index: i,
          parent: frame,
          parentType: type,
          depth: frame.depth + 1,
        });
      }
    }
    frame.target[frame.index] = node;
  }
  const doc = holder[0]!;
  return { type: 'doc', content: doc.content ?? [] };
}

/**
 * Validates and sanitizes a rich-text document. `input` may be the tree or its JSON text (SPEC §3).
 * Returns a new tree (the input is not modified) or a message saying what is wrong and where.
 */
export function sanitizeDocContent(input: unknown): SanitizeResult {
  let value = input;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { ok: false, message: 'content is a string but not valid JSON' };
    }
  }
  if (!isPlainObject(value)) {
    return {
      ok: false,
      message: 'content must be a rich-text document: { "type": "doc", "content": [...] }',
    };
  }
  try {
    return { ok: true, doc: walk(value) };
  } catch (error) {
    if (error instanceof InvalidContent) return { ok: false, message: error.message };
    // JSON.parse can produce trees deep enough to hit engine limits elsewhere; never let that escape.
    if (error instanceof RangeError)
      return { ok: false, message: 'content is too large or too deeply nested' };
    throw error;
  }
}

/** zod schema for `content` in request bodies: accepts a tree or JSON text, outputs the sanitized tree. */
export const richTextDocInputSchema = z.unknown().transform((value, ctx): RichTextDoc => {
  const result = sanitizeDocContent(value);
  if (result.ok) return result.doc;
  ctx.addIssue({ code: 'custom', message: result.message });
  return z.NEVER;
});

/** zod schema for `content` in responses (already sanitized by the server; checked only for shape). */
export const richTextDocSchema = z.custom<RichTextDoc>(
  (value) => isPlainObject(value) && value.type === 'doc' && Array.isArray(value.content),
  { message: 'must be a rich-text document' },
);
