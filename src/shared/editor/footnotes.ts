import { Node, mergeAttributes } from '@tiptap/core';
import { Fragment, type Node as ProseMirrorNode, type Slice } from '@tiptap/pm/model';
import { AttrStep, ReplaceAroundStep } from '@tiptap/pm/transform';
import { Plugin, PluginKey, TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';

/**
 * Footnotes (docs/footnotes.md). Three nodes:
 * - `footnoteReference`: an inline atom in the text, attribute `id`. Its number is never stored: it is its
 *   position among the references, so inserting one before another renumbers both.
 * - `footnotes`: the list of notes, the document's last block (the doc's content is `block+ footnotes?`).
 * - `footnote`: one note, attribute `id` (the reference it belongs to), content one or more paragraphs.
 *
 * References and notes pair up one to one and the notes follow the references' order. `planFootnotes` is THE
 * rule that restores that after any change (a deleted reference takes its note away, a pasted copy of a
 * reference gets a new id and a copy of the note); the editor applies it after each local transaction
 * (`footnoteSyncPlugin`) and the content validator applies it to every write (validate.ts).
 */

export const FOOTNOTE_REFERENCE = 'footnoteReference';
export const FOOTNOTES = 'footnotes';
export const FOOTNOTE = 'footnote';

export const FOOTNOTE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const isFootnoteId = (value: unknown): value is string =>
  typeof value === 'string' && FOOTNOTE_ID_PATTERN.test(value);

/** A short random id (no crypto.randomUUID: it is missing outside secure contexts, e.g. plain http on a LAN). */
function newFootnoteId(): string {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return `fn${Array.from(bytes, (byte) => byte.toString(36).padStart(2, '0')).join('')}`.slice(0, 14);
}

/** Anchor names inside the editor and shared pages (ids are stable while numbers move). */
export const footnoteAnchor = (id: string) => `fn-${id}`;
export const footnoteReferenceAnchor = (id: string) => `fnref-${id}`;

export interface FootnotePlan {
  /** The id each reference must carry, in document order (differs from the input where it was renamed). */
  referenceIds: string[];
  /**
   * The notes as they must stand, in order: `from` is the index of the existing note whose content it takes
   * (undefined: a new empty note).
   */
  notes: { id: string; from: number | undefined }[];
}

/**
 * The notes the references call for. A reference without a valid id, or with one an earlier reference
 * already has (a copy and paste), gets a new id; its note is a copy of the note it was copied from. Notes
 * no reference calls for are dropped; the first of several notes with one id is kept.
 */
export function planFootnotes(
  referenceIds: readonly unknown[],
  noteIds: readonly unknown[],
  newId: () => string = newFootnoteId,
): FootnotePlan {
  const noteIndex = new Map<string, number>();
  noteIds.forEach((id, index) => {
    if (isFootnoteId(id) && !noteIndex.has(id)) noteIndex.set(id, index);
  });
  const seen = new Set<string>();
  const ids: string[] = [];
  const notes: FootnotePlan['notes'] = [];
  for (const raw of referenceIds) {
    let id = isFootnoteId(raw) ? raw : newId();
    const from = isFootnoteId(raw) ? noteIndex.get(raw) : undefined;
    if (seen.has(id)) {
      do id = newId();
      while (seen.has(id) || noteIndex.has(id));
    }
    seen.add(id);
    ids.push(id);
    notes.push({ id, from });
  }
  return { referenceIds: ids, notes };
}

/** Whether applying the plan changes nothing. */
function planIsIdentity(
  plan: FootnotePlan,
  referenceIds: readonly unknown[],
  noteIds: readonly unknown[],
): boolean {
  if (plan.notes.length !== noteIds.length) return false;
  return plan.notes.every(
    (note, index) => note.from === index && plan.referenceIds[index] === referenceIds[index],
  );
}

// ---------------------------------------------------------------------------------------------------------
// Nodes

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    footnotes: {
      /** Inserts a footnote reference at the caret; its note is added at the end and gets the caret. */
      insertFootnote: () => ReturnType;
    };
  }
}

export interface FootnoteReferenceOptions {
  /**
   * Numbers by reference id, for rendering HTML outside the editor (exports, shared pages): the HTML then
   * says `<sup><a href="#fn1" id="fnref1">1</a></sup>`. Inside the editor the number is drawn by the view.
   */
  numbers: ReadonlyMap<string, number> | undefined;
}

export const FootnoteReferenceNode = Node.create<FootnoteReferenceOptions>({
  name: FOOTNOTE_REFERENCE,
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  draggable: false,

  addOptions() {
    return { numbers: undefined };
  },

  addAttributes() {
    return {
      id: {
        default: null,
        parseHTML: (element: HTMLElement) => footnoteIdFromElement(element),
        renderHTML: () => ({}),
      },
    };
  },

  // The number is not text of the document: word counts, search and copied plain text leave it out.
  renderText: () => '',

  parseHTML() {
    // Our own export and shared pages (`sup > a[href^="#fn"]`), mammoth's Word footnotes (`sup > a[href^="#footnote-"]`).
    return [
      { tag: 'sup[data-footnote-ref]', priority: 60 },
      {
        tag: 'sup',
        priority: 60,
        getAttrs: (element) =>
          footnoteHrefId(element.querySelector('a')?.getAttribute('href')) ? null : false,
      },
    ];
  },

  addCommands() {
    return {
      insertFootnote:
        () =>
        ({ state, tr, dispatch }) => {
          const type = state.schema.nodes[FOOTNOTE_REFERENCE]!;
          const { $from } = state.selection;
          for (let depth = $from.depth; depth > 0; depth--) {
            // A note cannot have a note of its own.
            if ($from.node(depth).type.name === FOOTNOTES) return false;
          }
          if (!$from.parent.canReplaceWith($from.index(), $from.index(), type)) return false;
          if (!dispatch) return true;
          const id = newFootnoteId();
          tr.replaceSelectionWith(type.create({ id }), true);
          syncFootnotes(tr);
          // The writer goes on with the note's text; its back-link returns to the reference.
          const pos = footnoteTextPosition(tr.doc, id);
          if (pos !== undefined) tr.setSelection(TextSelection.create(tr.doc, pos));
          tr.setMeta(footnoteSyncKey, true).scrollIntoView();
          return true;
        },
    };
  },

  renderHTML({ node, HTMLAttributes }) {
    const id = String(node.attrs.id ?? '');
    const number = this.options.numbers?.get(id);
    if (number !== undefined) {
      return [
        'sup',
        mergeAttributes(HTMLAttributes, { class: 'footnote-ref' }),
        ['a', { href: `#fn${number}`, id: `fnref${number}` }, String(number)],
      ];
    }
    return [
      'sup',
      mergeAttributes(HTMLAttributes, { 'data-footnote-ref': id, class: 'footnote-ref' }),
      ['a', { href: `#${footnoteAnchor(id)}`, id: footnoteReferenceAnchor(id) }],
    ];
  },
});

export const FootnotesNode = Node.create({
  name: FOOTNOTES,
  content: `${FOOTNOTE}+`,
  isolating: true,
  selectable: false,
  draggable: false,

  parseHTML() {
    return [
      { tag: 'section.footnotes', contentElement: 'ol' },
      { tag: 'section[data-footnotes]', contentElement: 'ol' },
    ];
  },

  renderHTML() {
    return ['section', { class: 'footnotes', 'data-footnotes': '' }, ['ol', 0]];
  },
});

export interface FootnoteOptions {
  /** As FootnoteReferenceOptions.numbers: the export's numbers, for the back-link's address. */
  numbers: ReadonlyMap<string, number> | undefined;
}

export const FootnoteNode = Node.create<FootnoteOptions>({
  name: FOOTNOTE,
  content: 'paragraph+',
  defining: true,
  isolating: true,
  selectable: false,
  draggable: false,

  addOptions() {
    return { numbers: undefined };
  },

  addAttributes() {
    return {
      id: {
        default: null,
        parseHTML: (element: HTMLElement) => footnoteIdFromElement(element),
        renderHTML: () => ({}),
      },
    };
  },

  parseHTML() {
    return [
      // Before the list item's own rule.
      { tag: 'section.footnotes li', priority: 60, contentElement: footnoteBody },
      { tag: 'section[data-footnotes] li', priority: 60, contentElement: footnoteBody },
    ];
  },

  renderHTML({ node }) {
    const id = String(node.attrs.id ?? '');
    const number = this.options.numbers?.get(id);
    // Numbered (an export): the number pairs the note with its reference, as in any footnoted HTML.
    const [anchor, back, own] =
      number !== undefined
        ? [`fn${number}`, `#fnref${number}`, {}]
        : [footnoteAnchor(id), `#${footnoteReferenceAnchor(id)}`, { 'data-footnote': id }];
    return [
      'li',
      { id: anchor, ...own },
      ['div', { class: 'footnote-body' }, 0],
      ['a', { href: back, class: 'footnote-backref', 'aria-label': 'Back to the text' }, '↩'],
    ];
  },
});

/** The note's text without its back-link (ours is outside the body; GFM and mammoth put it in the last paragraph). */
function footnoteBody(element: HTMLElement): HTMLElement {
  const body = element.querySelector(':scope > .footnote-body');
  if (body) return body as HTMLElement;
  for (const link of [...element.querySelectorAll('a')]) {
    const href = link.getAttribute('href') ?? '';
    if (
      /^#(fnref|user-content-fnref|footnote-ref)/u.test(href) ||
      link.classList.contains('footnote-backref')
    ) {
      // The space that set the back-link apart from the text goes with it.
      const before = link.previousSibling;
      if (before?.nodeType === 3 && before.textContent) before.textContent = before.textContent.trimEnd();
      link.remove();
    }
  }
  return element;
}

/** `#fn1`, `#fn-abc`, `#user-content-fn-1` (GitHub), `#footnote-1` (mammoth) → the note's name in the file. */
function footnoteHrefId(href: string | null | undefined): string | undefined {
  const match = /^#(?:user-content-)?(?:fn|footnote)-?([A-Za-z0-9_-]{1,60})$/u.exec(href ?? '');
  return match ? match[1] : undefined;
}

/**
 * The id a reference or note is read with from HTML: our editor's own (`data-footnote-ref`, `data-footnote`),
 * else the name in the link or element id, so that a file's reference and its note pair up.
 */
function footnoteIdFromElement(element: HTMLElement): string | null {
  const own = element.getAttribute('data-footnote-ref') ?? element.getAttribute('data-footnote');
  if (isFootnoteId(own)) return own;
  if (element.tagName === 'LI') {
    const match = /^(?:user-content-)?(?:fn|footnote)-?([A-Za-z0-9_-]{1,60})$/u.exec(element.id);
    return match ? `fn-${match[1]}` : null;
  }
  const name = footnoteHrefId(element.querySelector('a')?.getAttribute('href'));
  return name ? `fn-${name}` : null;
}

// ---------------------------------------------------------------------------------------------------------
// Keeping references and notes paired in the editor

interface FootnoteScan {
  references: { id: unknown; pos: number }[];
  /** Top-level footnotes blocks with their positions. */
  blocks: { node: ProseMirrorNode; pos: number }[];
  notes: ProseMirrorNode[];
  /** References inside notes (not allowed: a note cannot have a note). */
  nested: number[];
}

function scan(doc: ProseMirrorNode): FootnoteScan {
  const result: FootnoteScan = { references: [], blocks: [], notes: [], nested: [] };
  doc.forEach((block, offset) => {
    if (block.type.name === FOOTNOTES) {
      result.blocks.push({ node: block, pos: offset });
      block.forEach((note) => result.notes.push(note));
      block.descendants((node, pos) => {
        if (node.type.name === FOOTNOTE_REFERENCE) result.nested.push(offset + 1 + pos);
      });
      return;
    }
    block.descendants((node, pos) => {
      if (node.type.name === FOOTNOTE_REFERENCE)
        result.references.push({ id: node.attrs.id, pos: offset + 1 + pos });
    });
  });
  return result;
}

/** The numbers of the references in the document, by id (1, 2, … in reading order). */
export function footnoteNumbers(doc: ProseMirrorNode): Map<string, number> {
  const numbers = new Map<string, number>();
  for (const { id } of scan(doc).references)
    if (isFootnoteId(id) && !numbers.has(id)) numbers.set(id, numbers.size + 1);
  return numbers;
}

/**
 * Adds to `tr` the steps that pair references and notes again in `tr.doc`; false when they were paired.
 */
function syncFootnotes(tr: Transaction): boolean {
  const { doc } = tr;
  const { schema } = doc.type;
  const found = scan(doc);
  const referenceIds = found.references.map((reference) => reference.id);
  const noteIds = found.notes.map((note) => note.attrs.id as unknown);
  const plan = planFootnotes(referenceIds, noteIds);
  const blocks = found.blocks;
  const blockInPlace =
    blocks.length === (plan.notes.length > 0 ? 1 : 0) &&
    (blocks.length === 0 || blocks[0]!.pos + blocks[0]!.node.nodeSize === doc.content.size);
  if (found.nested.length === 0 && blockInPlace && planIsIdentity(plan, referenceIds, noteIds)) return false;

  const mapping = tr.mapping.maps.length;
  const map = (pos: number) => tr.mapping.slice(mapping).map(pos);
  plan.referenceIds.forEach((id, index) => {
    const reference = found.references[index]!;
    if (reference.id !== id) tr.setNodeAttribute(reference.pos, 'id', id);
  });
  // From the end, so earlier positions stay valid.
  for (const pos of [...found.nested].reverse()) tr.delete(pos, pos + 1);
  const noteType = schema.nodes[FOOTNOTE]!;
  const paragraph = schema.nodes.paragraph!;
  const notes = plan.notes.map(({ id, from }) => {
    const source = from === undefined ? undefined : found.notes[from];
    return noteType.create({ id }, source ? withoutReferences(source.content) : paragraph.create());
  });
  if (blockInPlace && blocks.length === 1) {
    // One list in its place: its content is replaced (y-prosemirror diffs it, unchanged notes keep their identity).
    const block = blocks[0]!;
    tr.replaceWith(map(block.pos + 1), map(block.pos + block.node.nodeSize - 1), Fragment.from(notes));
  } else {
    for (const block of [...blocks].reverse()) {
      const from = map(block.pos);
      tr.delete(from, from + block.node.nodeSize);
    }
    if (notes.length > 0) tr.insert(tr.doc.content.size, schema.nodes[FOOTNOTES]!.create(null, notes));
  }
  return true;
}

/** The position at the end of the text of the note with `id`, where writing goes on (undefined: no such note). */
export function footnoteTextPosition(doc: ProseMirrorNode, id: string): number | undefined {
  const last = doc.lastChild;
  if (last?.type.name !== FOOTNOTES) return undefined;
  let found: number | undefined;
  const start = doc.content.size - last.nodeSize;
  last.forEach((note, offset) => {
    // Inside the end of its last paragraph.
    if (found === undefined && note.attrs.id === id) found = start + 1 + offset + note.nodeSize - 2;
  });
  return found;
}

/** The position just after the reference with `id` (undefined: no such reference). */
export function footnoteReferenceEnd(doc: ProseMirrorNode, id: string): number | undefined {
  const reference = scan(doc).references.find((candidate) => candidate.id === id);
  return reference ? reference.pos + 1 : undefined;
}

function withoutReferences(content: Fragment): Fragment {
  const blocks: ProseMirrorNode[] = [];
  content.forEach((block) => {
    const inline: ProseMirrorNode[] = [];
    block.forEach((child) => {
      if (child.type.name !== FOOTNOTE_REFERENCE) inline.push(child);
    });
    blocks.push(block.copy(Fragment.from(inline)));
  });
  return Fragment.from(blocks);
}

const FOOTNOTE_TYPES = new Set([FOOTNOTE_REFERENCE, FOOTNOTES, FOOTNOTE]);

/**
 * Whether a transaction may have changed the pairing: it removed or inserted a reference or a note, or
 * changed one's attributes. Typing elsewhere does not, so the whole document is not read on each keystroke.
 */
export function touchesFootnotes(tr: Transaction): boolean {
  let touched = false;
  const check = (node: ProseMirrorNode) => {
    if (FOOTNOTE_TYPES.has(node.type.name)) touched = true;
    return !touched;
  };
  tr.steps.forEach((step, index) => {
    if (touched) return;
    const before = tr.docs[index]!;
    if (step instanceof AttrStep) {
      const node = before.nodeAt(step.pos);
      if (node) check(node);
      return;
    }
    step.getMap().forEach((oldStart, oldEnd) => {
      if (!touched && oldEnd > oldStart) before.nodesBetween(oldStart, oldEnd, check);
    });
    const slice = (step as { slice?: Slice }).slice;
    if (!touched && slice) slice.content.descendants(check);
    // A replace-around step (wrapping, lifting) moves content without a slice of it: read the moved range.
    if (!touched && step instanceof ReplaceAroundStep) before.nodesBetween(step.gapFrom, step.gapTo, check);
  });
  return touched;
}

const footnoteSyncKey = new PluginKey('footnoteSync');

/**
 * Pairs references and notes after each local change. Changes from collaborators are left alone: their
 * editor paired them already, and two editors repairing the same state at once would both insert a note.
 */
export function footnoteSyncPlugin(isRemote: (tr: Transaction) => boolean): Plugin {
  return new Plugin({
    key: footnoteSyncKey,
    appendTransaction(transactions, _old, state: EditorState) {
      if (!transactions.some((tr) => tr.docChanged)) return null;
      const local = transactions.filter((tr) => !isRemote(tr) && !tr.getMeta(footnoteSyncKey));
      if (!local.some(touchesFootnotes)) return null;
      const tr = state.tr;
      return syncFootnotes(tr) ? tr.setMeta(footnoteSyncKey, true) : null;
    },
  });
}

// ---------------------------------------------------------------------------------------------------------
// The same rule on a rich-text tree (the content validator's)

interface JsonNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: JsonNode[];
}

/**
 * Pairs references and notes in a validated tree, in place: the notes follow the references' order in one
 * list at the end, notes without a reference go, a reference without a note gets an empty one, repeated ids
 * are renamed, references inside notes are removed. Returns whether anything changed.
 */
export function pairFootnotesInTree(doc: { content?: JsonNode[] }): boolean {
  const blocks = doc.content ?? [];
  const references: JsonNode[] = [];
  const notes: JsonNode[] = [];
  let changed = false;
  const collect = (node: JsonNode) => {
    if (node.type === FOOTNOTE_REFERENCE) references.push(node);
    for (const child of node.content ?? []) collect(child);
  };
  const dropNested = (node: JsonNode) => {
    if (!node.content) return;
    const kept = node.content.filter((child) => child.type !== FOOTNOTE_REFERENCE);
    if (kept.length !== node.content.length) {
      changed = true;
      node.content = kept;
    }
    node.content.forEach(dropNested);
  };
  const body: JsonNode[] = [];
  let listCount = 0;
  blocks.forEach((block, index) => {
    if (block.type !== FOOTNOTES) {
      body.push(block);
      collect(block);
      return;
    }
    listCount++;
    if (index !== blocks.length - 1) changed = true;
    for (const note of block.content ?? []) {
      dropNested(note);
      notes.push(note);
    }
  });
  const referenceIds = references.map((reference) => reference.attrs?.id);
  const noteIds = notes.map((note) => note.attrs?.id);
  const plan = planFootnotes(referenceIds, noteIds);
  if (listCount > (plan.notes.length > 0 ? 1 : 0) || !planIsIdentity(plan, referenceIds, noteIds))
    changed = true;
  if (!changed) return false;
  references.forEach((reference, index) => {
    reference.attrs = { ...reference.attrs, id: plan.referenceIds[index] };
  });
  const paired = plan.notes.map(({ id, from }): JsonNode => {
    const source = from === undefined ? undefined : notes[from];
    const content = source?.content?.length ? source.content : [{ type: 'paragraph' }];
    return { type: FOOTNOTE, attrs: { id }, content };
  });
  if (paired.length > 0) body.push({ type: FOOTNOTES, content: paired });
  doc.content = body;
  return true;
}

/** Numbers by reference id in a tree (1, 2, … in reading order), for rendering outside the editor. */
export function footnoteNumbersOf(doc: { content?: JsonNode[] }): Map<string, number> {
  const numbers = new Map<string, number>();
  const walk = (node: JsonNode) => {
    if (node.type === FOOTNOTES) return;
    if (node.type === FOOTNOTE_REFERENCE && isFootnoteId(node.attrs?.id) && !numbers.has(node.attrs.id)) {
      numbers.set(node.attrs.id, numbers.size + 1);
    }
    for (const child of node.content ?? []) walk(child);
  };
  for (const block of doc.content ?? []) walk(block);
  return numbers;
}
