import { Extension, type Editor } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import type { DecorationSet } from '@tiptap/pm/view';
import { StandInPlugin } from '@client/features/editor';

export const liveGrammarKey = new PluginKey<DecorationSet>('liveGrammar');

interface LiveGrammarSlotStorage {
  standIn: StandInPlugin;
}

/**
 * The place of live grammar's plugin in the editor from the start: its code (and the underlines component) comes
 * after the editor was made, and is handed to this stand-in rather than registered. Registering a plugin
 * reconfigures the editor, and ProseMirror then re-creates every plugin view, which would close a '/' palette
 * the writer is typing in.
 */
export const LiveGrammarSlot = Extension.create<object, LiveGrammarSlotStorage>({
  name: 'liveGrammarSlot',

  addStorage() {
    return {
      standIn: new StandInPlugin({
        key: liveGrammarKey,
        stateful: true,
        props: ['decorations', 'handleClick'],
      }),
    };
  },

  addProseMirrorPlugins() {
    return [this.storage.standIn.plugin];
  },
});

/** The editor's live grammar stand-in; the editor must have been made with LiveGrammarSlot. */
export function liveGrammarSlotOf(editor: Editor): StandInPlugin {
  const storage = (editor.storage as unknown as Record<string, LiveGrammarSlotStorage | undefined>)
    .liveGrammarSlot;
  if (!storage) throw new Error('Live grammar needs an editor made with LiveGrammarSlot');
  return storage.standIn;
}
