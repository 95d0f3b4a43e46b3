import { Extension, type Editor } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorAiActions } from '../ai-actions';
import { SLASH_COMMANDS, isAiCommand } from '../slash-commands';
import { aiActionFor, runSlashCommand } from './block-commands';
import { StandInPlugin } from './stand-in-plugin';

export interface SlashCommandOptions {
  /** Reads the AI actions at the moment of use (they are wired after the editor is created). */
  getAi: () => EditorAiActions;
}

export const slashCommandPluginKey = new PluginKey('slashCommand');

interface SlashCommandStorage {
  palette: 'loading' | 'here' | 'failed';
  /** Takes on the palette's plugin when its code is here. */
  standIn: StandInPlugin;
}

/**
 * Brings the '/' palette's code and hands its plugin to the stand-in; a '/' typed before that opens the palette
 * on arrival. If the fetch fails (offline), the next '/' tries again.
 */
async function attachSlashPalette(
  editor: Editor,
  storage: SlashCommandStorage,
  getAi: () => EditorAiActions,
): Promise<void> {
  storage.palette = 'loading';
  let module: typeof import('./slash-palette-plugin');
  try {
    module = await import('./slash-palette-plugin');
  } catch {
    storage.palette = 'failed';
    return;
  }
  if (editor.isDestroyed) return;
  storage.palette = 'here';
  StandInPlugin.adopt(editor.view, [[storage.standIn, module.createSlashPalettePlugin(editor, getAi)]]);
  const { $from, empty } = editor.state.selection;
  if (empty && $from.parent.textBetween(0, $from.parentOffset, undefined, '\ufffc').includes('/')) {
    editor.view.dispatch(editor.state.tr.setMeta('addToHistory', false));
  }
}

/**
 * '/' opens the command palette. Also binds the AI shortcuts the palette shows (from @shared/keymap);
 * the block shortcuts it shows (Ctrl+Alt+0-3, Ctrl+Shift+8/7/B, Ctrl+Alt+C) are bound here too so the palette
 * and the keyboard agree whatever the base extensions do. Typing does not need the palette (TipTap's Suggestion
 * plugin, Floating UI and the palette's view): its code is fetched as the editor is created, not with the page.
 */
export const SlashCommandExtension = Extension.create<SlashCommandOptions, SlashCommandStorage>({
  name: 'slashCommand',

  addOptions() {
    return { getAi: () => ({}) };
  },

  addStorage() {
    return {
      palette: 'loading',
      standIn: new StandInPlugin({
        key: slashCommandPluginKey,
        stateful: true,
        props: ['handleKeyDown', 'decorations'],
      }),
    };
  },

  addKeyboardShortcuts() {
    const shortcuts: Record<string, () => boolean> = {};
    for (const command of SLASH_COMMANDS) {
      if (!command.keymap) continue;
      shortcuts[command.keymap] = () => {
        const ai = this.options.getAi();
        if (isAiCommand(command.id) && !aiActionFor(command.id, ai)) return false;
        return runSlashCommand(this.editor, command.id, ai);
      };
    }
    return shortcuts;
  },

  addProseMirrorPlugins() {
    const { editor, storage } = this;
    return [
      storage.standIn.plugin,
      new Plugin({
        props: {
          handleTextInput: (_view, _from, _to, text) => {
            if (text.includes('/') && storage.palette === 'failed')
              void attachSlashPalette(editor, storage, () => this.options.getAi());
            return false;
          },
        },
      }),
    ];
  },

  onCreate() {
    void attachSlashPalette(this.editor, this.storage, () => this.options.getAi());
  },
});
