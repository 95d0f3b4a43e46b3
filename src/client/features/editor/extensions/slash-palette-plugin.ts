import type { Editor } from '@tiptap/core';
import { ReactRenderer } from '@tiptap/react';
import { Suggestion, exitSuggestion, type SuggestionProps } from '@tiptap/suggestion';
import type { EditorAiActions } from '../ai-actions';
import { SlashPalette, type SlashPaletteHandle, type SlashPaletteProps } from '../components/SlashPalette';
import {
  SLASH_COMMANDS,
  customSlashCommand,
  filterSlashCommands,
  type SlashCommand,
} from '../slash-commands';
import { isCommandAvailable, runSlashCommand } from './block-commands';
import { slashCommandPluginKey } from './slash-command';

/**
 * The '/' palette itself: TipTap's Suggestion plugin (with Floating UI) and the palette's React view. Fetched as
 * the editor is created rather than with the page (see SlashCommandExtension).
 */
export function createSlashPalettePlugin(editor: Editor, getAi: () => EditorAiActions) {
  // The built-in commands, then the writer's own (they change while the editor is open).
  const paletteCommands = () => [
    ...SLASH_COMMANDS,
    ...(getAi().paletteCommands ?? []).map(customSlashCommand),
  ];
  return Suggestion<SlashCommand, SlashCommand>({
    pluginKey: slashCommandPluginKey,
    editor,
    char: '/',
    // Spaces belong to the query ('/heading 1'), as in Notion; once a query with a space matches nothing the
    // palette steps aside so a '/' in ordinary prose ('and/or so on') does not hold Enter hostage.
    allowSpaces: true,
    shouldShow: ({ query }) => !/\s/u.test(query) || filterSlashCommands(query, paletteCommands()).length > 0,
    items: ({ query }) => filterSlashCommands(query, paletteCommands()),
    command: ({ editor: current, range, props }) => {
      runSlashCommand(current, props.id, getAi(), range);
    },
    render: () => {
      let renderer: ReactRenderer<SlashPaletteHandle, SlashPaletteProps> | null = null;
      let unmount: (() => void) | null = null;

      const toProps = (props: SuggestionProps<SlashCommand, SlashCommand>): SlashPaletteProps => ({
        items: props.items,
        query: props.query,
        isAvailable: (id) => isCommandAvailable(id, getAi()),
        onRun: (command) => props.command(command),
        onClose: () => exitSuggestion(props.editor.view, slashCommandPluginKey),
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
  });
}
