import type { MarkType, NodeType, Schema } from '@tiptap/pm/model';
import {
  HEADING_LEVELS,
  HIGHLIGHT_COLORS,
  IMAGE_ALIGNMENTS,
  IMAGE_WIDTHS,
  MAX_IMAGE_ALT_LENGTH,
  MAX_IMAGE_CAPTION_LENGTH,
  MAX_TABLE_CELL_SPAN,
  MAX_TABLE_COLUMN_WIDTH_PX,
  MIN_TABLE_COLUMN_WIDTH_PX,
  TABLE_CELL_ALIGNMENTS,
  TEXT_ALIGNMENTS,
} from '../constants';
import type { RichTextDoc, RichTextMark, RichTextNode } from '../schemas/richText';
import { getEditorSchema } from './extensions';
import { STYLE_VALUE_PATTERNS } from './html-policy';
import { FOOTNOTE_ID_PATTERN, pairFootnotesInTree } from './footnotes';
import { snapImageWidth } from './image-node';
import { isImageSrc } from './image-src';
import { MAX_HREF_LENGTH, sanitizeHref } from './links';
import { hasNul, stripNul } from '../text/nul';
import { hasLoneSurrogate, replaceLoneSurrogates } from '../text/surrogates';
import { SUGGESTION_SOURCES } from './suggestion-marks';
import { UUID_PATTERN } from '../uuid';

/**
 * THE content validator: every write of a document's content goes through it (REST create and update, the
 * collaboration server's stores, share-link editors, imports). What may appear is derived from the editor
 * schema (extensions.ts): node and mark types, which attribute keys each carries, which children a node may
 * hold (every type its content expression can reach) and which marks it allows. What the schema cannot
 * say is added here, per attribute: value rules (heading levels 1–3, the four alignments, whitelisted link
 * protocols, textStyle values that will end up inside a `style` attribute, highlight colours from a short
 * list, a task's checked flag a boolean, table cell spans and column widths bounded) and size bounds.
 *
 * Two modes over the same rules:
 * - `refuse` (REST bodies, imports): the first problem is reported with where it is; the client answers 400.
 *   Unknown attribute KEYS are dropped rather than refused (the editor library may add defaults we don't
 *   store) and so are marks a node does not allow (code blocks hold plain text, as ProseMirror would do).
 * - `repair` (live content, stored content before an export): never fails. Unknown or misplaced nodes and
 *   unknown marks are dropped, attribute values clamped (heading level to 1–3) or removed, disallowed hrefs
 *   blanked, over-long text cut, lone UTF-16 surrogates replaced by U+FFFD; `changed` says whether anything was.
 * Both modes pair footnote references and notes (footnotes.ts): an orphan note goes, a reference without a note
 * gets an empty one, the list moves to the end. The walk is iterative, so a hostile tree cannot overflow the
 * stack (the footnote pairing recurses, within the depth bound the walk has enforced).
 */

export const MAX_RICH_TEXT_DEPTH = 64;
export const MAX_RICH_TEXT_NODES = 100_000;
const MAX_MARKS_PER_NODE = 16;
/** Longest text of one text node (a paragraph of about 300 pages). */
export const MAX_TEXT_NODE_LENGTH = 1_000_000;
const MAX_SHORT_ATTR_LENGTH = 256;
const LONE_SURROGATE_MESSAGE = 'contains a lone UTF-16 surrogate (half of a character)';

type ValidationMode = 'refuse' | 'repair';

export class InvalidContentError extends Error {
  override name = 'InvalidContentError';
}

// ---------------------------------------------------------------------------------------------------------
// Attribute value rules: what the schema cannot express.

type AttrResult = { ok: true; value: unknown } | { ok: false; message: string; repaired: unknown };
type AttrCheck = (value: unknown) => AttrResult;

const HEADING_LEVEL_SET = new Set<number>(HEADING_LEVELS);
const ALIGNMENT_SET = new Set<string>(TEXT_ALIGNMENTS);
const { color: COLOR, fontSize: FONT_SIZE, fontFamily: FONT_FAMILY } = STYLE_VALUE_PATTERNS;
const CODE_LANGUAGE = /^[A-Za-z0-9_+#.-]{1,64}$/;
const SUGGESTION_ID = /^[A-Za-z0-9_-]{1,128}$/;
const ORDERED_LIST_TYPE = /^[A-Za-z0-9-]{1,32}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const SUGGESTION_SOURCE_SET = new Set<string>(SUGGESTION_SOURCES);

const ok = (value: unknown): AttrResult => ({ ok: true, value });
/** `repaired` is what repair mode stores instead (null: the attribute is removed). */
const fail = (message: string, repaired: unknown = null): AttrResult => ({ ok: false, message, repaired });

/** Absent, null and the empty string (what an HTML parser reads from a style property that is not set) mean "none". */
function nullable(check: AttrCheck): AttrCheck {
  return (value) => (value === null || value === undefined || value === '' ? ok(null) : check(value));
}

function matching(pattern: RegExp, what: string): AttrCheck {
  return nullable((value) =>
    typeof value === 'string' && pattern.test(value) ? ok(value) : fail(`must be ${what}`),
  );
}

const shortString: AttrCheck = nullable((value) =>
  typeof value === 'string' && value.length <= MAX_SHORT_ATTR_LENGTH
    ? ok(value)
    : fail(`must be a string of at most ${MAX_SHORT_ATTR_LENGTH} characters or null`),
);

const textAlign: AttrCheck = nullable((value) =>
  typeof value === 'string' && ALIGNMENT_SET.has(value)
    ? ok(value)
    : fail(`must be one of ${TEXT_ALIGNMENTS.join(', ')} or null`),
);

const headingLevel: AttrCheck = (value) => {
  if (value === undefined || value === null) return ok(HEADING_LEVELS[0]);
  if (typeof value === 'number' && HEADING_LEVEL_SET.has(value)) return ok(value);
  const message = `must be one of ${HEADING_LEVELS.join(', ')}`;
  const number = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(number)) return fail(message, HEADING_LEVELS[0]);
  // Clamped: a level-9 heading is still a heading, of the smallest size we have.
  const lowest = HEADING_LEVELS[0];
  const highest = HEADING_LEVELS[HEADING_LEVELS.length - 1]!;
  return fail(message, Math.min(highest, Math.max(lowest, Math.round(number))));
};

const listStart: AttrCheck = nullable((value) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? ok(value)
    : fail('must be an integer of at least 0'),
);

const href: AttrCheck = (value) => {
  if (value === undefined || value === null) return ok('');
  if (typeof value !== 'string') return fail('must be a string', '');
  if (value.length > MAX_HREF_LENGTH) return fail(`must be at most ${MAX_HREF_LENGTH} characters`, '');
  return ok(sanitizeHref(value));
};

/** An integer in [min, max]; repair clamps a number and drops anything else (the schema default applies). */
function boundedInteger(min: number, max: number): AttrCheck {
  return nullable((value) => {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max) {
      return ok(value);
    }
    const message = `must be an integer from ${min} to ${max}`;
    if (typeof value !== 'number' || !Number.isFinite(value)) return fail(message);
    return fail(message, Math.min(max, Math.max(min, Math.round(value))));
  });
}

const cellSpan = boundedInteger(1, MAX_TABLE_CELL_SPAN);

/** A cell's column widths in pixels, one per column it spans (null: as wide as the layout makes it). */
const columnWidths: AttrCheck = nullable((value) => {
  const message = `must be a list of at most ${MAX_TABLE_CELL_SPAN} widths from ${MIN_TABLE_COLUMN_WIDTH_PX} to ${MAX_TABLE_COLUMN_WIDTH_PX} pixels (0 or null: no width) or null`;
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_TABLE_CELL_SPAN) return fail(message);
  const widths: number[] = [];
  let valid = true;
  for (const width of value as unknown[]) {
    // The resizing plugin writes 0 for a column no one has sized.
    if (width === null || width === 0) {
      widths.push(0);
      continue;
    }
    if (typeof width !== 'number' || !Number.isFinite(width)) return fail(message);
    const clamped = Math.min(
      MAX_TABLE_COLUMN_WIDTH_PX,
      Math.max(MIN_TABLE_COLUMN_WIDTH_PX, Math.round(width)),
    );
    if (clamped !== width) valid = false;
    widths.push(clamped);
  }
  return valid ? ok(widths) : fail(message, widths);
});

const CELL_ALIGNMENT_SET = new Set<string>(TABLE_CELL_ALIGNMENTS);
const cellAlign: AttrCheck = nullable((value) =>
  typeof value === 'string' && CELL_ALIGNMENT_SET.has(value)
    ? ok(value)
    : fail(`must be one of ${TABLE_CELL_ALIGNMENTS.join(', ')} or null`),
);

const taskChecked: AttrCheck = (value) => {
  if (value === undefined || value === null) return ok(false);
  return typeof value === 'boolean' ? ok(value) : fail('must be true or false', value === 'true');
};

const HIGHLIGHT_COLOR_SET = new Set<string>(HIGHLIGHT_COLORS.map((color) => color.value));
const highlightColor: AttrCheck = nullable((value) =>
  typeof value === 'string' && HIGHLIGHT_COLOR_SET.has(value.toLowerCase())
    ? ok(value.toLowerCase())
    : fail(`must be one of ${[...HIGHLIGHT_COLOR_SET].join(', ')} or null`),
);

const TABLE_CELL_RULES: Record<string, AttrCheck> = {
  colspan: cellSpan,
  rowspan: cellSpan,
  colwidth: columnWidths,
  align: cellAlign,
};

const suggestionSource: AttrCheck = nullable((value) =>
  typeof value === 'string' && SUGGESTION_SOURCE_SET.has(value)
    ? ok(value)
    : fail(`must be one of ${SUGGESTION_SOURCES.join(', ')}`),
);

/** The attributes of a tracked change (insertion and deletion marks share them). */
const SUGGESTION_MARK_RULES: Record<string, AttrCheck> = {
  id: matching(SUGGESTION_ID, 'a suggestion id (letters, digits, _ and -)'),
  author_id: matching(SUGGESTION_ID, 'an author id (letters, digits, _ and -)'),
  author_name: shortString,
  source: suggestionSource,
  created_at: matching(ISO_TIME, 'an ISO 8601 time such as 2026-01-31T12:00:00Z'),
};

/** Only this server's image addresses (image-src.ts); an image without one is removed (REQUIRED_ATTRIBUTES). */
const imageSrcRule: AttrCheck = nullable((value) =>
  isImageSrc(value) ? ok(value) : fail('must be the address of an image uploaded to this document'),
);

const textOfAtMost = (max: number): AttrCheck =>
  nullable((value) => {
    if (typeof value !== 'string') return fail('must be a string or null');
    if (value.length > max) return fail(`must be at most ${max} characters`, value.slice(0, max));
    return ok(value);
  });
const imageAlt = textOfAtMost(MAX_IMAGE_ALT_LENGTH);
const imageCaption = textOfAtMost(MAX_IMAGE_CAPTION_LENGTH);

const IMAGE_WIDTH_SET = new Set<number>(IMAGE_WIDTHS);
const imageWidth: AttrCheck = nullable((value) => {
  if (typeof value === 'number' && IMAGE_WIDTH_SET.has(value)) return ok(value);
  const message = `must be one of ${IMAGE_WIDTHS.join(', ')} (percent of the text column)`;
  const number = typeof value === 'number' ? value : Number(value);
  return fail(message, Number.isFinite(number) ? snapImageWidth(number) : null);
});

const IMAGE_ALIGNMENT_SET = new Set<string>(IMAGE_ALIGNMENTS);
const imageAlign: AttrCheck = nullable((value) =>
  typeof value === 'string' && IMAGE_ALIGNMENT_SET.has(value)
    ? ok(value)
    : fail(`must be one of ${IMAGE_ALIGNMENTS.join(', ')} or null`),
);

const footnoteId = matching(FOOTNOTE_ID_PATTERN, 'a footnote id (letters, digits, _ and -)');

/** Value rules by node or mark type, then attribute. A schema attribute without a rule is a short string. */
const ATTRIBUTE_RULES: Record<string, Record<string, AttrCheck>> = {
  paragraph: { textAlign },
  heading: { level: headingLevel, textAlign },
  orderedList: {
    start: listStart,
    type: matching(ORDERED_LIST_TYPE, 'a list style such as 1, a, A, i or I'),
  },
  codeBlock: { language: matching(CODE_LANGUAGE, 'a language name (letters, digits, _ + # . -)') },
  link: { href },
  textStyle: {
    fontFamily: matching(FONT_FAMILY, 'a font name (letters, digits, spaces, quotes, commas)'),
    fontSize: matching(FONT_SIZE, 'a size such as 16px'),
    color: matching(COLOR, 'a colour such as #ef4444, rgb(…) or a colour name'),
    aiSuggestion: matching(SUGGESTION_ID, 'a suggestion id (letters, digits, _ and -)'),
  },
  insertion: SUGGESTION_MARK_RULES,
  deletion: SUGGESTION_MARK_RULES,
  comment: { threadId: matching(UUID_PATTERN, 'a thread id (a UUID)') },
  taskItem: { checked: taskChecked },
  tableCell: TABLE_CELL_RULES,
  tableHeader: TABLE_CELL_RULES,
  highlight: { color: highlightColor },
  image: { src: imageSrcRule, alt: imageAlt, title: imageCaption, width: imageWidth, align: imageAlign },
  footnoteReference: { id: footnoteId },
  footnote: { id: footnoteId },
};

/** Attributes without which a node or mark means nothing: it is refused, or removed in repair mode. */
const REQUIRED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  image: ['src'],
  comment: ['threadId'],
};

// ---------------------------------------------------------------------------------------------------------
// Rules derived from the schema

interface TypeRule {
  attrs: Record<string, AttrCheck> | undefined;
}

interface NodeRule extends TypeRule {
  type: NodeType;
  /** Every node type the content expression can hold, at any position. */
  children: Set<string>;
  isLeaf: boolean;
  isText: boolean;
}

interface DerivedRules {
  nodes: Map<string, NodeRule>;
  marks: Map<string, TypeRule & { type: MarkType }>;
}

function attributeRules(typeName: string, attrs: object | undefined): Record<string, AttrCheck> | undefined {
  const keys = Object.keys(attrs ?? {});
  if (keys.length === 0) return undefined;
  const known = ATTRIBUTE_RULES[typeName] ?? {};
  return Object.fromEntries(keys.map((key) => [key, known[key] ?? shortString]));
}

/** The types reachable anywhere in a content expression (walks its automaton). */
function reachableChildren(type: NodeType): Set<string> {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const queue = [type.contentMatch];
  while (queue.length > 0) {
    const match = queue.pop()!;
    if (seen.has(match)) continue;
    seen.add(match);
    for (let i = 0; i < match.edgeCount; i++) {
      const edge = match.edge(i);
      names.add(edge.type.name);
      queue.push(edge.next);
    }
  }
  return names;
}

let cachedRules: DerivedRules | undefined;

function deriveRules(schema: Schema): DerivedRules {
  const nodes = new Map<string, NodeRule>();
  for (const [name, type] of Object.entries(schema.nodes)) {
    nodes.set(name, {
      type,
      attrs: attributeRules(name, type.spec.attrs),
      children: reachableChildren(type),
      isLeaf: type.isLeaf,
      isText: type.isText,
    });
  }
  const marks = new Map<string, TypeRule & { type: MarkType }>();
  for (const [name, type] of Object.entries(schema.marks)) {
    marks.set(name, { type, attrs: attributeRules(name, type.spec.attrs) });
  }
  return { nodes, marks };
}

function rules(): DerivedRules {
  cachedRules ??= deriveRules(getEditorSchema());
  return cachedRules;
}

// ---------------------------------------------------------------------------------------------------------
// The walk

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Frame {
  input: unknown;
  /** Where the validated node goes (null entries are removed afterwards in repair mode). */
  target: (RichTextNode | null)[];
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

/** Where a node or mark is, for messages; built only when something is wrong. */
function label(frame: Frame, nodeType: string, markIndex = -1, markType?: string): string {
  const node = `"${nodeType}" at ${pathOf(frame)}`;
  if (markIndex < 0) return node;
  return `${markType ? `"${markType.slice(0, 64)}" ` : ''}mark ${markIndex} of ${node}`;
}

class Walk {
  changed = false;
  private count = 0;

  constructor(
    private readonly mode: ValidationMode,
    private readonly derived: DerivedRules,
  ) {}

  /** In refuse mode, throws `message()`; in repair mode, notes the change and returns (the caller repairs). */
  private problem(message: () => string): void {
    if (this.mode === 'refuse') throw new InvalidContentError(message());
    this.changed = true;
  }

  private attrs(
    attrRules: Record<string, AttrCheck> | undefined,
    attrs: unknown,
    where: () => string,
  ): Record<string, unknown> | undefined {
    if (attrs === undefined || attrs === null) {
      if (!attrRules) return undefined;
      attrs = {};
    }
    if (!isPlainObject(attrs)) {
      this.problem(() => `attrs of ${where()} must be an object`);
      attrs = {};
    }
    const given = attrs as Record<string, unknown>;
    if (!attrRules) return undefined;
    const out: Record<string, unknown> = {};
    let kept = 0;
    for (const key in attrRules) {
      let raw = hasOwn(given, key) ? given[key] : undefined;
      if (typeof raw === 'string' && hasNul(raw)) {
        raw = stripNul(raw);
        this.changed = true;
      }
      if (typeof raw === 'string' && hasLoneSurrogate(raw)) {
        this.problem(() => `${where()}: attribute "${key}" ${LONE_SURROGATE_MESSAGE}`);
        raw = replaceLoneSurrogates(raw);
      }
      const result = attrRules[key]!(raw);
      let value: unknown;
      if (result.ok) value = result.value;
      else {
        this.problem(() => `${where()}: attribute "${key}" ${result.message}`);
        value = result.repaired;
      }
      // Absent attributes stay absent, except those with a real default (heading level, link href).
      if (value !== null || (result.ok && raw !== undefined)) {
        out[key] = value;
        kept++;
      }
    }
    return kept > 0 ? out : undefined;
  }

  private marks(
    marks: unknown,
    frame: Frame,
    nodeType: string,
    parent: NodeRule,
  ): RichTextMark[] | undefined {
    if (marks === undefined || marks === null) return undefined;
    if (!Array.isArray(marks)) {
      this.problem(() => `marks of ${label(frame, nodeType)} must be an array`);
      return undefined;
    }
    let list: unknown[] = marks;
    if (list.length > MAX_MARKS_PER_NODE) {
      this.problem(
        () => `${label(frame, nodeType)} has ${list.length} marks; at most ${MAX_MARKS_PER_NODE} are allowed`,
      );
      list = list.slice(0, MAX_MARKS_PER_NODE);
    }
    const out: RichTextMark[] = [];
    for (let i = 0; i < list.length; i++) {
      const mark: unknown = list[i];
      if (!isPlainObject(mark) || typeof mark.type !== 'string') {
        this.problem(() => `${label(frame, nodeType, i)} must be an object with a string "type"`);
        continue;
      }
      const markType = mark.type;
      const rule = this.derived.marks.get(markType);
      if (!rule) {
        this.problem(() => `unknown mark type "${markType.slice(0, 64)}" in ${label(frame, nodeType)}`);
        continue;
      }
      // A mark the parent does not allow (code blocks allow none) is dropped in both modes.
      if (!parent.type.allowsMarkType(rule.type)) continue;
      const attrs = this.attrs(rule.attrs, mark.attrs, () => label(frame, nodeType, i, markType));
      const missing = REQUIRED_ATTRIBUTES[markType]?.find((key) => attrs?.[key] == null);
      if (missing) {
        this.problem(() => `${label(frame, nodeType, i, markType)} needs the attribute "${missing}"`);
        continue;
      }
      // A repeated type keeps the last one, in its position (ProseMirror's rule); a type that does not exclude
      // itself (comment threads overlap) only drops an equal repeat.
      const selfExclusive = rule.type.excludes(rule.type);
      for (let j = 0; j < out.length; j++) {
        if (
          out[j]!.type === markType &&
          (selfExclusive || JSON.stringify(out[j]!.attrs) === JSON.stringify(attrs))
        ) {
          out.splice(j, 1);
          break;
        }
      }
      out.push(attrs ? { type: markType, attrs } : { type: markType });
    }
    return out.length > 0 ? out : undefined;
  }

  run(root: unknown): RichTextDoc {
    const holder: (RichTextNode | null)[] = [null];
    const stack: Frame[] = [
      { input: root, target: holder, index: 0, parent: undefined, parentType: undefined, depth: 1 },
    ];
    const filled: (RichTextNode | null)[][] = [];
    while (stack.length > 0) {
      const frame = stack.pop()!;
      const node = this.node(frame, stack);
      frame.target[frame.index] = node;
      if (node?.content) filled.push(node.content as (RichTextNode | null)[]);
    }
    if (this.changed) {
      // Dropped nodes left holes (in refuse mode only a text node of NUL characters is dropped); close them.
      for (const list of filled) {
        let write = 0;
        for (let read = 0; read < list.length; read++) if (list[read]) list[write++] = list[read]!;
        list.length = write;
      }
    }
    const doc: RichTextDoc = { type: 'doc', content: holder[0]?.content ?? [] };
    // Footnote references and notes are paired, not checked: the pairing is derived (the notes follow the
    // references), so a tree that breaks it is brought back to it in both modes (footnotes.ts).
    if (pairFootnotesInTree(doc)) this.changed = true;
    return doc;
  }

  private node(frame: Frame, stack: Frame[]): RichTextNode | null {
    const { input, parentType } = frame;
    if (++this.count > MAX_RICH_TEXT_NODES) {
      this.problem(() => `the document has more than ${MAX_RICH_TEXT_NODES} nodes`);
      return null;
    }
    if (!isPlainObject(input) || typeof input.type !== 'string') {
      this.problem(() => `node at ${pathOf(frame)} must be an object with a string "type"`);
      return null;
    }
    const type = input.type;
    const rule = this.derived.nodes.get(type);
    if (!rule) {
      this.problem(() => `unknown node type "${type.slice(0, 64)}" at ${pathOf(frame)}`);
      return null;
    }
    if (parentType === undefined) {
      if (type !== 'doc') {
        this.problem(() => `the root node must be of type "doc", not "${type}"`);
        return null;
      }
    } else if (!this.derived.nodes.get(parentType)!.children.has(type)) {
      this.problem(() => `"${type}" is not allowed inside "${parentType}" (at ${pathOf(frame)})`);
      return null;
    }
    const node: RichTextNode = { type };
    const attrs = this.attrs(rule.attrs, input.attrs, () => label(frame, type));
    if (attrs) node.attrs = attrs;
    const missing = REQUIRED_ATTRIBUTES[type]?.find((key) => attrs?.[key] === undefined);
    if (missing) {
      this.problem(() => `${label(frame, type)} needs the attribute "${missing}"`);
      return null;
    }

    if (parentType !== undefined && rule.type.isInline) {
      const marks = this.marks(input.marks, frame, type, this.derived.nodes.get(parentType)!);
      if (marks) node.marks = marks;
    }
    if (rule.isText) {
      if (typeof input.text !== 'string' || input.text.length === 0) {
        this.problem(() => `text node at ${pathOf(frame)} must have a non-empty "text" string`);
        return null;
      }
      let text = input.text;
      if (hasNul(text)) {
        // Dropped in both modes, like an unknown attribute key: it cannot be stored and means nothing.
        text = stripNul(text);
        this.changed = true;
        if (text === '') return null;
      }
      if (hasLoneSurrogate(text)) {
        this.problem(() => `text node at ${pathOf(frame)} ${LONE_SURROGATE_MESSAGE}`);
        text = replaceLoneSurrogates(text);
      }
      if (text.length > MAX_TEXT_NODE_LENGTH) {
        this.problem(() => `text node at ${pathOf(frame)} is longer than ${MAX_TEXT_NODE_LENGTH} characters`);
        text = text.slice(0, MAX_TEXT_NODE_LENGTH);
      }
      node.text = text;
    }

    let children = input.content;
    if (children !== undefined && children !== null && !Array.isArray(children)) {
      this.problem(() => `content of ${label(frame, type)} must be an array`);
      children = undefined;
    }
    if (rule.isLeaf) {
      if (Array.isArray(children) && children.length > 0) {
        this.problem(() => `${label(frame, type)} cannot have content`);
      }
      return node;
    }
    if (!Array.isArray(children)) return node;
    let list: unknown[] = children;
    if (list.length > 0 && frame.depth >= MAX_RICH_TEXT_DEPTH) {
      this.problem(() => `the document is nested deeper than ${MAX_RICH_TEXT_DEPTH} levels`);
      list = [];
    }
    if (this.count + list.length > MAX_RICH_TEXT_NODES) {
      this.problem(() => `the document has more than ${MAX_RICH_TEXT_NODES} nodes`);
      list = list.slice(0, Math.max(0, MAX_RICH_TEXT_NODES - this.count));
    }
    const out = new Array<RichTextNode | null>(list.length).fill(null);
    node.content = out as RichTextNode[];
    // Pushed in reverse so that problems are reported in document order.
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
    return node;
  }
}

/**
 * Validates content in `refuse` mode: the clean tree (a new object; the input is not modified), or
 * InvalidContentError naming the first problem and where it is.
 */
export function validateRichText(input: unknown): RichTextDoc {
  return new Walk('refuse', rules()).run(input);
}

/**
 * Repairs content (see the modes above): always returns a tree the editor schema accepts node by node,
 * and whether anything had to change. Anything that is not a rich-text tree at all becomes the empty doc.
 */
export function repairRichText(input: unknown): { doc: RichTextDoc; changed: boolean } {
  const walk = new Walk('repair', rules());
  try {
    return { doc: walk.run(input), changed: walk.changed };
  } catch (error) {
    if (error instanceof RangeError) return { doc: { type: 'doc', content: [] }, changed: true };
    throw error;
  }
}
