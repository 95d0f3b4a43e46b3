import { Extension, type Editor } from '@tiptap/core';
import { PluginKey } from '@tiptap/pm/state';
import { ReactRenderer } from '@tiptap/react';
import { Suggestion, exitSuggestion, type SuggestionProps } from '@tiptap/suggestion';
import type { EditorAiActions } from '../ai-actions';
import { SlashPalette, type SlashPaletteHandle, type SlashPaletteProps } from '../components/SlashPalette';
import {
  SLASH_COMMANDS,
  customSlashCommand,
  filterSlashCommands,
  isAiCommand,
  type SlashCommand,
} from '../slash-commands';
import { aiActionFor, isCommandAvailable, runSlashCommand } from './block-commands';

export interface SlashCommandOptions {
  /** Reads the AI actions at the moment of use (they are wired after the editor is created). */
  getAi: () => EditorAiActions;
}

export const slashCommandPluginKey = new PluginKey('slashCommand');

/**
 * '/' opens the command palette (SPEC §2). Also binds the AI shortcuts the palette shows (Ctrl+K, Ctrl+R, Ctrl+/);
 * the block shortcuts it shows (Ctrl+Alt+0-3, Ctrl+Shift+8/7/B, Ctrl+Alt+C) are bound here too so the palette
 * and the keyboard agree whatever the base extensions do.
 */
export const SlashCommandExtension = Extension.create<SlashCommandOptions>({
  name: 'slashCommand',

  addOptions() {
    return { getAi: () => ({}) };
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
    const getAi = () => this.options.getAi();
    // The built-in commands, then the writer's own (they change while the editor is open).
    const paletteCommands = () => [
      ...SLASH_COMMANDS,
      ...(getAi().paletteCommands ?? []).map(customSlashCommand),
    ];
    return [
      Suggestion<SlashCommand, SlashCommand>({
        pluginKey: slashCommandPluginKey,
        editor: this.editor,
        char: '/',
        // Spaces belong to the query ('/heading 1'), as in Notion; once a query with a space matches nothing the
        // palette steps aside so a '/' in ordinary prose ('and/or so on') does not hold Enter hostage.
        allowSpaces: true,
        shouldShow: ({ query }) =>
          !/\s/u.test(query) || filterSlashCommands(query, paletteCommands()).length > 0,
        items: ({ query }) => filterSlashCommands(query, paletteCommands()),
        command: ({ editor, range, props }) => {
          runSlashCommand(editor, props.id, getAi(), range);
        },
        render: () => {
          let renderer: ReactRenderer<SlashPaletteHandle, SlashPaletteProps> | null = null;
          let unmount: (() => void) | null = null;

          const toProps = (props: SuggestionProps<SlashCommand, SlashCommand>): SlashPaletteProps => ({
            items: props.items,
            query: props.query,
            isAvailable: (id) => isCommandAvailable(id, getAi()),
            onRun: (command) => props.command(command),
            onClose: () => closePalette(props.editor),
            editorElement: props.editor.view.dom,
          });

          return {
            onStart: (props) => {
              renderer = new ReactRenderer(SlashPalette, { props: toProps(props), editor: props.editor });
              unmount = props.mount(renderer.element as HTMLElement);
            },
            onUpdate: (props) => renderer?.updateProps(toProps(props)),
            onKeyDown: ({ event }) => renderer?.ref?.onKeyDown(event) ?? false,
            onExit: () => {
              unmount?.();
              renderer?.destroy();
              unmount = null;
              renderer = null;
            },
          };
        },
      }),
    ];
  },
});

function closePalette(editor: Editor) {
  exitSuggestion(editor.view, slashCommandPluginKey);
}
