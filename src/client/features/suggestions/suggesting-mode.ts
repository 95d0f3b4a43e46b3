import { Extension, type Editor } from '@tiptap/core';
import { isChangeOrigin } from '@tiptap/extension-collaboration';
import type { Mark, MarkType, Node as PmNode } from '@tiptap/pm/model';
import {
  Plugin,
  PluginKey,
  Selection,
  TextSelection,
  type EditorState,
  type Transaction,
} from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import type { SuggestionAttributes } from '@shared/editor/suggestion-marks';

/**
 * Suggesting mode: what a person types arrives as an `insertion` suggestion and what they delete stays in
 * the document with a `deletion` mark, for the owner to accept or reject later. Each edit transaction is
 * rewritten from the range its steps changed: the removed text is put back and marked, the new content is inserted after it
 * and marked. Deleting one's own pending insertion removes it for real; text someone else proposed is left
 * alone. Changes that remove no text and add none (splitting or joining paragraphs, formatting, block
 * types) pass as they are: only the words are tracked, which is also what the server enforces for
 * "Can suggest" visitors (src/server/collab/suggestion-guard.ts). Remote changes (Yjs) and operations that
 * already express suggestions (AI answers, accepting and rejecting) carry SUGGESTION_OPERATION and are
 * never rewritten.
 */

/** Transaction meta of operations that write suggestion marks themselves, or decide them. */
export const SUGGESTION_OPERATION = 'qwSuggestionOperation';

export type SuggestionAuthor = Pick<SuggestionAttributes, 'author_id' | 'author_name'>;

interface SuggestingModeStorage {
  enabled: boolean;
  /** Forced on (a "Can suggest" visitor): the mode cannot be switched off. */
  forced: boolean;
  author: SuggestionAuthor;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    suggestingMode: {
      /** Switches Suggesting mode on or off (no effect when forced). */
      setSuggesting: (enabled: boolean) => ReturnType;
    };
  }
  interface Storage {
    suggestingMode: SuggestingModeStorage;
  }
}

export function isSuggesting(editor: Editor): boolean {
  return editor.storage.suggestingMode?.enabled ?? false;
}

function suggestionMarkOf(
  node: PmNode,
  types: { insertion: MarkType; deletion: MarkType },
): Mark | undefined {
  return node.marks.find((mark) => mark.type === types.insertion || mark.type === types.deletion);
}

/** The group this edit continues: the author's own suggestion touching the changed range, if any. */
function continuedGroup(
  doc: PmNode,
  from: number,
  to: number,
  types: { insertion: MarkType; deletion: MarkType },
  author: SuggestionAuthor,
): SuggestionAttributes | undefined {
  const candidates: (PmNode | null | undefined)[] = [doc.resolve(from).nodeBefore, doc.resolve(to).nodeAfter];
  doc.nodesBetween(from, to, (node) => {
    if (node.isText) candidates.push(node);
  });
  for (const node of candidates) {
    const mark = node?.isText ? suggestionMarkOf(node, types) : undefined;
    if (mark && mark.attrs.author_id === author.author_id) return mark.attrs as SuggestionAttributes;
  }
  return undefined;
}

/**
 * The part of the document a transaction changed, from the steps themselves (not a diff of the documents,
 * which cannot tell which of two equal characters was typed): `start` is unchanged before it in both
 * documents, and everything after `endB` in the new document is unchanged too.
 */
function changedRange(tr: Transaction): { start: number; endB: number } | null {
  let start = Infinity;
  let endB = -Infinity;
  tr.mapping.maps.forEach((map, index) => {
    const rest = tr.mapping.slice(index + 1);
    map.forEach((_oldStart, _oldEnd, newStart, newEnd) => {
      start = Math.min(start, rest.map(newStart, -1));
      endB = Math.max(endB, rest.map(newEnd, 1));
    });
  });
  return start <= endB ? { start, endB } : null;
}

/**
 * The edit `tr` makes to `state`, rewritten as suggestions by `author`, or null when it has nothing to
 * track (the original transaction then goes through unchanged).
 */
function suggestedTransaction(
  state: EditorState,
  tr: Transaction,
  author: SuggestionAuthor,
): Transaction | null {
  const { insertion, deletion } = state.schema.marks;
  if (!insertion || !deletion) return null;
  const types = { insertion, deletion };
  const before = state.doc;
  const after = tr.doc;
  const range = changedRange(tr);
  if (!range) return null;
  const { start, endB } = range;
  const endA = endB - (after.content.size - before.content.size);
  if (endA < start) return null;

  let removesText = false;
  before.nodesBetween(start, endA, (node) => {
    if (node.isText) removesText = true;
    return !removesText;
  });
  let addsText = false;
  after.nodesBetween(start, endB, (node) => {
    if (node.isText) addsText = true;
    return !addsText;
  });
  if (!removesText && !addsText) return null;

  const group = continuedGroup(before, start, endA, types, author) ?? {
    id: crypto.randomUUID(),
    ...author,
    source: 'user' as const,
    created_at: new Date().toISOString(),
  };
  const out = state.tr;
  const inserted = endB - start;
  if (inserted > 0) {
    out.replace(endA, endA, after.slice(start, endB));
  }
  const insertedTo = endA + (out.doc.content.size - before.content.size);
  if (addsText) {
    out.removeMark(endA, insertedTo, deletion);
    out.addMark(endA, insertedTo, insertion.create(group));
  }
  // The removed range keeps its text: marked for deletion, except the author's own pending insertions,
  // which go (a proposal withdrawn), and text already suggested by someone else, which stays as it is.
  const withdrawn: { from: number; to: number }[] = [];
  before.nodesBetween(start, endA, (node, pos) => {
    if (!node.isText) return true;
    const from = Math.max(pos, start);
    const to = Math.min(pos + node.nodeSize, endA);
    const mark = suggestionMarkOf(node, types);
    if (!mark) out.addMark(from, to, deletion.create(group));
    else if (mark.type === insertion && mark.attrs.author_id === author.author_id)
      withdrawn.push({ from, to });
    return false;
  });
  const mappingStart = out.steps.length;
  for (const span of withdrawn.reverse()) out.delete(span.from, span.to);
  const withdrawal = out.mapping.slice(mappingStart);

  // Where the caret goes: through the insertion like typing; after a removal, before the marked text when
  // deleting backwards (Backspace, a selection) and after it when deleting forwards (Delete).
  const direction = tr.getMeta(DELETE_DIRECTION) as 'forward' | 'backward' | undefined;
  const forwardDelete =
    inserted === 0 &&
    endA > start &&
    (direction ? direction === 'forward' : state.selection.empty && state.selection.head <= start);
  const place = (position: number): number => {
    let mapped: number;
    if (position < start) mapped = position;
    else if (position === start && inserted === 0) mapped = forwardDelete ? endA : start;
    else if (position <= endB) mapped = endA + (position - start);
    else mapped = position + (insertedTo - endB);
    return withdrawal.map(mapped, -1);
  };
  const selection = tr.selection;
  const anchor = out.doc.resolve(Math.min(place(selection.anchor), out.doc.content.size));
  const head = out.doc.resolve(Math.min(place(selection.head), out.doc.content.size));
  out.setSelection(
    selection instanceof TextSelection ? TextSelection.between(anchor, head) : Selection.near(head),
  );
  if (tr.scrolledIntoView) out.scrollIntoView();
  out.setMeta(SUGGESTION_OPERATION, true);
  return out;
}

/** Meta of a deletion whose direction is known (from the browser's input event): where the caret goes. */
const DELETE_DIRECTION = 'qwSuggestionDeleteDirection';

/**
 * The browser's own deletions (Backspace, Delete, word and line deletions) as transactions the mode
 * rewrites. The browser names the exact range it is about to delete (`getTargetRanges`), computed from
 * the selection it really has; letting it change the page first would leave ProseMirror to work out from
 * the DOM what went, which next to a suggestion's <ins>/<del> is not always the text meant.
 */
function deleteAsInputSays(view: EditorView, event: InputEvent): boolean {
  if (!event.inputType.startsWith('delete') || event.inputType === 'deleteByDrag') return false;
  const [range] = event.getTargetRanges();
  if (!range) return false;
  let from: number;
  let to: number;
  try {
    from = view.posAtDOM(range.startContainer, range.startOffset);
    to = view.posAtDOM(range.endContainer, range.endOffset);
  } catch {
    return false;
  }
  if (from >= to) return false;
  event.preventDefault();
  const forward = /Forward$/u.test(event.inputType);
  view.dispatch(
    view.state.tr
      .delete(from, to)
      .setMeta(DELETE_DIRECTION, forward ? 'forward' : 'backward')
      .scrollIntoView(),
  );
  return true;
}

export const SuggestingMode = Extension.create<{ author: SuggestionAuthor; forced: boolean }>({
  name: 'suggestingMode',
  addProseMirrorPlugins() {
    const storage = this.storage;
    return [
      new Plugin({
        key: new PluginKey('suggestingModeInput'),
        props: {
          handleDOMEvents: {
            beforeinput: (view, event) => storage.enabled && deleteAsInputSays(view, event),
          },
        },
      }),
    ];
  },

  addOptions() {
    return { author: { author_id: 'anonymous', author_name: 'Anonymous' }, forced: false };
  },

  addStorage() {
    return { enabled: this.options.forced, forced: this.options.forced, author: this.options.author };
  },

  addCommands() {
    return {
      setSuggesting:
        (enabled) =>
        ({ editor, tr, dispatch }) => {
          const storage = editor.storage.suggestingMode;
          if (storage.forced) return enabled;
          if (!dispatch) return true;
          storage.enabled = enabled;
          // The command's own transaction, empty, so React views (the mode switch) see the change. A second
          // transaction dispatched from inside the command made the command's own one stale ("mismatched
          // transaction") whenever a plugin had appended to the state in between.
          tr.setMeta(SUGGESTION_OPERATION, true);
          return true;
        },
    };
  },

  dispatchTransaction({ transaction, next }) {
    const storage = this.storage;
    if (
      !storage.enabled ||
      !transaction.docChanged ||
      transaction.getMeta(SUGGESTION_OPERATION) ||
      isChangeOrigin(transaction)
    ) {
      next(transaction);
      return;
    }
    next(suggestedTransaction(this.editor.state, transaction, storage.author) ?? transaction);
  },
});
