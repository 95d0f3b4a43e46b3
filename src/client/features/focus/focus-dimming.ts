import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode } from '@tiptap/pm/model';
import { type EditorState, Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { focusSettings, subscribeFocusSettings, type DimUnit } from './settings';
import { LINE_BREAK_CHAR, sentenceAt } from './sentence';

/** On the editor's body while dimming is on: focus.css dims its top-level blocks but the current ones. */
export const DIMMING_CLASS = 'qw-focus-dimming';
/** The top-level blocks holding the selection, which stay lit apart from their own dimmed ranges. */
export const CURRENT_BLOCK_CLASS = 'qw-focus-current';
/** Text of the current blocks outside the current sentence or paragraph. */
export const DIMMED_TEXT_CLASS = 'qw-focus-dimmed';

interface DimmingState {
  unit: DimUnit | null;
  decorations: DecorationSet;
}

const dimmingKey = new PluginKey<DimmingState>('focusDimming');
/** A transaction carrying this meta re-reads the settings (the writer changed them in the toolbar). */
const SETTINGS_CHANGED = 'focusSettingsChanged';

const currentUnit = (): DimUnit | null => {
  const settings = focusSettings();
  return settings.dimming ? settings.dimUnit : null;
};

/** A top-level block as [from, to) around a position (between blocks: the block after it). */
function topLevelBlock(doc: ProseMirrorNode, pos: number): [number, number] | null {
  const $pos = doc.resolve(pos);
  if ($pos.depth >= 1) return [$pos.before(1), $pos.after(1)];
  const node = doc.nodeAt(pos);
  return node ? [pos, pos + node.nodeSize] : null;
}

/**
 * What stays lit for a selection: the top-level blocks it touches (a range across blocks lights them whole), and,
 * for a selection inside one paragraph, the ranges of those blocks to dim around the sentence or paragraph.
 */
function focusRanges(
  state: EditorState,
  unit: DimUnit,
): { blocks: Array<[number, number]>; dimmed: Array<[number, number]> } {
  const { doc, selection } = state;
  const first = topLevelBlock(doc, selection.from);
  const last = topLevelBlock(doc, selection.to);
  if (!first || !last) return { blocks: [], dimmed: [] };
  const blocks: Array<[number, number]> = [];
  for (let pos = first[0]; pos < last[1];) {
    const node = doc.nodeAt(pos);
    if (!node) break;
    blocks.push([pos, pos + node.nodeSize]);
    pos += node.nodeSize;
  }
  const { $from, $to } = selection;
  const paragraph = $from.parent;
  if (!paragraph.inlineContent || $to.parent !== paragraph || blocks.length !== 1)
    return { blocks, dimmed: [] };
  const start = $from.start();
  let lit: [number, number] = [start, start + paragraph.content.size];
  if (unit === 'sentence') {
    const text = paragraph.textBetween(0, paragraph.content.size, undefined, LINE_BREAK_CHAR);
    lit = [start + sentenceAt(text, $from.parentOffset)[0], start + sentenceAt(text, $to.parentOffset)[1]];
  }
  const [blockFrom, blockTo] = blocks[0]!;
  const dimmed = (
    [
      [blockFrom, lit[0]],
      [lit[1], blockTo],
    ] as Array<[number, number]>
  ).filter(([from, to]) => to > from);
  return { blocks, dimmed };
}

function decorationsFor(state: EditorState, unit: DimUnit | null): DecorationSet {
  if (!unit) return DecorationSet.empty;
  const { blocks, dimmed } = focusRanges(state, unit);
  return DecorationSet.create(state.doc, [
    ...blocks.map(([from, to]) => Decoration.node(from, to, { class: CURRENT_BLOCK_CLASS })),
    ...dimmed.map(([from, to]) => Decoration.inline(from, to, { class: DIMMED_TEXT_CLASS })),
  ]);
}

/**
 * Focus dimming: the rest of the document quieter than the sentence or paragraph holding the caret. Only the
 * blocks holding the selection get decorations (the other blocks are dimmed by one class on the body), so a
 * keystroke costs the same in a novel as in a note. The document itself never changes.
 */
export const FocusDimming = Extension.create({
  name: 'focusDimming',

  addProseMirrorPlugins() {
    return [
      new Plugin<DimmingState>({
        key: dimmingKey,
        state: {
          init: (_, state) => {
            const unit = currentUnit();
            return { unit, decorations: decorationsFor(state, unit) };
          },
          apply: (tr, previous, _oldState, newState) => {
            const unit = tr.getMeta(SETTINGS_CHANGED) ? currentUnit() : previous.unit;
            if (unit === previous.unit && !tr.docChanged && !tr.selectionSet) return previous;
            return { unit, decorations: decorationsFor(newState, unit) };
          },
        },
        props: {
          decorations: (state) => dimmingKey.getState(state)?.decorations,
          attributes: (state): Record<string, string> =>
            dimmingKey.getState(state)?.unit ? { class: DIMMING_CLASS } : {},
        },
        view: (view) => {
          const unsubscribe = subscribeFocusSettings(() => {
            if (!view.isDestroyed) view.dispatch(view.state.tr.setMeta(SETTINGS_CHANGED, true));
          });
          return { destroy: unsubscribe };
        },
      }),
    ];
  },
});
