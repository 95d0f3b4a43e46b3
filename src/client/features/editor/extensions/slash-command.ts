import { Extension, type Editor } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorAiActions } from '../ai-actions';
import { SLASH_COMMANDS, isAiCommand } from '../slash-commands';
import { aiActionFor, runSlashCommand } from './block-commands';

export interface SlashCommandOptions {
  /** Reads the AI actions at the moment of use (they are wired after the editor is created). */
  getAi: () => EditorAiActions;
}

export const slashCommandPluginKey = new PluginKey('slashCommand');
/** Marks where the palette's plugin goes, so its keys come in the same order as if it had been there from the start. */
const slashPaletteSlotKey = new PluginKey('slashPaletteSlot');

interface SlashCommandStorage {
  palette: 'loading' | 'attached' | 'failed';
}

/**
 * Registers the '/' palette once its code is here; a '/' typed before that opens the palette on arrival. If the
 * fetch fails (offline), the next '/' tries again.
 */
async function attachSlashPalette(
  editor: Editor,
  storage: SlashCommandStorage,
  getAi: () => EditorAiActions,
): Promise<void> {
  storage.palette = 'loading';
  let createSlashPalettePlugin: typeof import('./slash-palette-plugin').createSlashPalettePlugin;
  try {
    ({ createSlashPalettePlugin } = await import('./slash-palette-plugin'));
  } catch {
    storage.palette = 'failed';
    return;
  }
  if (editor.isDestroyed) return;
  editor.registerPlugin(createSlashPalettePlugin(editor, getAi), (plugin, plugins) => {
    const slot = plugins.indexOf(slashPaletteSlotKey.get(editor.state)!);
    return [...plugins.slice(0, slot + 1), plugin, ...plugins.slice(slot + 1)];
  });
  storage.palette = 'attached';
  const { $from, empty } = editor.state.selection;
  if (empty && $from.parent.textBetween(0, $from.parentOffset, undefined, '\ufffc').includes('/')) {
    editor.view.dispatch(editor.state.tr.setMeta('addToHistory', false));
  }
}

/**
 * '/' opens the command palette (SPEC §2). Also binds the AI shortcuts the palette shows (Ctrl+K, Ctrl+R, Ctrl+/);
 * the block shortcuts it shows (Ctrl+Alt+0-3, Ctrl+Shift+8/7/B, Ctrl+Alt+C) are bound here too so the palette
 * and the keyboard agree whatever the base extensions do. The palette (TipTap's Suggestion plugin, Floating UI and
 * the palette's view) is not needed to type, so its code is fetched as the editor is created, not with the page.
 */
export const SlashCommandExtension = Extension.create<SlashCommandOptions, SlashCommandStorage>({
  name: 'slashCommand',

  addOptions() {
    return { getAi: () => ({}) };
  },

  addStorage() {
    return { palette: 'loading' };
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
    const getAi = () => this.options.getAi();
    return [
      new Plugin({
        key: slashPaletteSlotKey,
        props: {
          handleTextInput: (_view, _from, _to, text) => {
            if (text.includes('/') && storage.palette === 'failed') void attachSlashPalette(editor, storage, getAi);
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
