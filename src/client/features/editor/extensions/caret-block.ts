import { Extension } from '@tiptap/core';
import type { Node as ProseMirrorNode, ResolvedPos } from '@tiptap/pm/model';
import { type EditorState, Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

/** Class of the top-level blocks that hold the selection; editor.css keeps them laid out. */
export const CARET_BLOCK_CLASS = 'qw-caret-block';

const caretBlockKey = new PluginKey<DecorationSet>('caretBlock');

/** The top-level block a position is in (or, between blocks, the one after it), as [from, to). */
function topLevelBlock(doc: ProseMirrorNode, $pos: ResolvedPos): [number, number] | null {
  if ($pos.depth >= 1) return [$pos.before(1), $pos.after(1)];
  const node = doc.nodeAt($pos.pos);
  return node ? [$pos.pos, $pos.pos + node.nodeSize] : null;
}

function caretBlocks(state: EditorState): DecorationSet {
  const { doc, selection } = state;
  const blocks = [topLevelBlock(doc, selection.$from), topLevelBlock(doc, selection.$to)].filter(
    (block): block is [number, number] => block !== null,
  );
  const unique = blocks.filter((block, index) => index === 0 || block[0] !== blocks[0]![0]);
  return DecorationSet.create(
    doc,
    unique.map(([from, to]) => Decoration.node(from, to, { class: CARET_BLOCK_CLASS })),
  );
}

/**
 * Marks the top-level blocks holding the selection (at most two: where it starts and where it ends).
 *
 * Long documents lay out only the blocks near the screen (`content-visibility: auto`, editor.css). Chromium
 * decides whether such a block is needed at its next rendering update, so a block made by a keystroke (Enter,
 * a '/' command) is not laid out yet when the next key arrives on a busy machine; the browser then leaves its
 * caret before the letter it has just inserted, ProseMirror reads that caret back, and the rest of the word goes
 * in front of the first letter ("ext lineN"). The marked blocks are always laid out.
 */
export const CaretBlock = Extension.create({
  name: 'caretBlock',

  addProseMirrorPlugins() {
    return [
      new Plugin<DecorationSet>({
        key: caretBlockKey,
        state: {
          init: (_, state) => caretBlocks(state),
          apply: (tr, previous, _oldState, newState) =>
            tr.docChanged || tr.selectionSet ? caretBlocks(newState) : previous,
        },
        props: {
          decorations: (state) => caretBlockKey.getState(state),
        },
      }),
    ];
  },
});
