/**
 * The slash-command palette's commands and its keyboard logic.
 * Pure data and functions: the TipTap extension and the React palette call into this module.
 */

import { KEYMAP, shortcutLabel, type ShortcutId } from '@shared/keymap';

type SlashCommandGroup = 'Basic Blocks' | 'AI Commands' | 'Your Commands';

export type BlockCommandId =
  | 'text'
  | 'heading1'
  | 'heading2'
  | 'heading3'
  | 'bulletList'
  | 'orderedList'
  | 'quote'
  | 'codeBlock'
  | 'divider'
  | 'taskList'
  | 'table'
  | 'image'
  | 'footnote';

export type AiCommandId = 'aiComplete' | 'aiRewrite' | 'aiSummarize' | 'aiAssistant';

/** A writer's own AI command (Settings → AI commands), by its id. */
export type CustomCommandId = `command:${string}`;

export type SlashCommandId = BlockCommandId | AiCommandId | CustomCommandId;

export interface SlashCommand {
  id: SlashCommandId;
  title: string;
  description: string;
  group: SlashCommandGroup;
  /** Label shown in the palette, e.g. 'Ctrl+Alt+1'. */
  shortcut?: string;
  /** ProseMirror keymap name of the same shortcut ('Mod' is Ctrl, or Cmd on macOS). */
  keymap?: string;
  /** Extra words the filter matches. */
  keywords: readonly string[];
}

/** A command's shortcut from the app's one keymap (its label and the binding the editor installs). */
function keysOf(id: ShortcutId): { shortcut: string; keymap: string } {
  return { shortcut: shortcutLabel(KEYMAP[id].keys), keymap: KEYMAP[id].keys };
}

const SLASH_COMMAND_GROUPS: readonly SlashCommandGroup[] = ['Basic Blocks', 'AI Commands', 'Your Commands'];

export const SLASH_COMMANDS: readonly SlashCommand[] = [
  {
    id: 'text',
    title: 'Text',
    description: 'Plain paragraph text',
    group: 'Basic Blocks',
    ...keysOf('paragraph'),
    keywords: ['paragraph', 'plain', 'p'],
  },
  {
    id: 'heading1',
    title: 'Heading 1',
    description: 'Large section heading',
    group: 'Basic Blocks',
    ...keysOf('heading1'),
    keywords: ['h1', 'title', 'big'],
  },
  {
    id: 'heading2',
    title: 'Heading 2',
    description: 'Medium section heading',
    group: 'Basic Blocks',
    ...keysOf('heading2'),
    keywords: ['h2', 'subtitle'],
  },
  {
    id: 'heading3',
    title: 'Heading 3',
    description: 'Small section heading',
    group: 'Basic Blocks',
    ...keysOf('heading3'),
    keywords: ['h3'],
  },
  {
    id: 'bulletList',
    title: 'Bullet List',
    description: 'A simple bulleted list',
    group: 'Basic Blocks',
    ...keysOf('bulletList'),
    keywords: ['unordered', 'ul', 'bulleted', 'list'],
  },
  {
    id: 'orderedList',
    title: 'Numbered List',
    description: 'A list with numbering',
    group: 'Basic Blocks',
    ...keysOf('orderedList'),
    keywords: ['ordered', 'ol', 'list'],
  },
  {
    id: 'quote',
    title: 'Quote',
    description: 'Capture a quotation',
    group: 'Basic Blocks',
    ...keysOf('quote'),
    keywords: ['blockquote', 'citation'],
  },
  {
    id: 'codeBlock',
    title: 'Code Block',
    description: 'Code with monospace font',
    group: 'Basic Blocks',
    ...keysOf('codeBlock'),
    keywords: ['code', 'snippet', 'pre'],
  },
  {
    id: 'divider',
    title: 'Divider',
    description: 'A horizontal line between sections',
    group: 'Basic Blocks',
    keywords: ['horizontal rule', 'hr', 'separator', 'line'],
  },
  {
    id: 'taskList',
    title: 'To-do List',
    description: 'Tasks with checkboxes',
    group: 'Basic Blocks',
    keywords: ['todo', 'task', 'checkbox', 'checklist'],
  },
  {
    id: 'table',
    title: 'Table',
    description: 'Rows and columns with a header row',
    group: 'Basic Blocks',
    keywords: ['grid', 'columns', 'rows'],
  },
  {
    id: 'image',
    title: 'Image',
    description: 'Upload a picture from your computer',
    group: 'Basic Blocks',
    keywords: ['picture', 'photo', 'upload', 'img', 'screenshot'],
  },
  {
    id: 'footnote',
    title: 'Footnote',
    description: 'A numbered note at the end of the document',
    group: 'Basic Blocks',
    ...keysOf('footnote'),
    keywords: ['note', 'citation', 'reference', 'endnote', 'source'],
  },
  {
    id: 'aiComplete',
    title: 'AI Complete',
    description: 'Continue writing from the cursor',
    group: 'AI Commands',
    ...keysOf('aiComplete'),
    keywords: ['continue', 'autocomplete', 'generate'],
  },
  {
    id: 'aiRewrite',
    title: 'AI Rewrite',
    description: 'Rewrite the selection in another style',
    group: 'AI Commands',
    ...keysOf('aiRewrite'),
    keywords: ['rephrase', 'style', 'tone'],
  },
  {
    id: 'aiSummarize',
    title: 'AI Summarize',
    description: 'Summarize the selection or document',
    group: 'AI Commands',
    keywords: ['summary', 'tldr', 'shorten'],
  },
  {
    id: 'aiAssistant',
    title: 'AI Assistant',
    description: 'Open the AI writing assistant',
    group: 'AI Commands',
    ...keysOf('aiAssistant'),
    keywords: ['help', 'outline', 'improve'],
  },
];

export function isAiCommand(id: SlashCommandId): id is AiCommandId {
  return id.startsWith('ai');
}

export function isCustomCommand(id: SlashCommandId): id is CustomCommandId {
  return id.startsWith('command:');
}

const CUSTOM_DESCRIPTION_MAX = 60;

/** A writer's command as a palette entry: its name, and its instruction as the description. */
export function customSlashCommand(command: { id: string; name: string; instruction: string }): SlashCommand {
  const description =
    command.instruction.length > CUSTOM_DESCRIPTION_MAX
      ? `${command.instruction.slice(0, CUSTOM_DESCRIPTION_MAX - 1).trimEnd()}…`
      : command.instruction;
  return {
    id: `command:${command.id}`,
    title: command.name,
    description,
    group: 'Your Commands',
    keywords: ['ai', 'custom', 'command'],
  };
}

/**
 * Commands matching the palette's filter, in palette order. A command matches when every word of the query is a
 * prefix-or-substring of its title or keywords (case-insensitive), so 'head' finds the headings and 'h2' Heading 2.
 */
export function filterSlashCommands(
  query: string,
  commands: readonly SlashCommand[] = SLASH_COMMANDS,
): SlashCommand[] {
  const terms = query.trim().toLowerCase().split(/\s+/u).filter(Boolean);
  if (terms.length === 0) return [...commands];
  return commands.filter((command) => {
    const haystack = [command.title, command.group, ...command.keywords].join(' ').toLowerCase();
    return terms.every((term) => haystack.includes(term));
  });
}

export interface SlashCommandSection {
  group: SlashCommandGroup;
  items: { command: SlashCommand; index: number }[];
}

/** Groups a filtered list for display, keeping each item's index in the flat list (the keyboard moves over that). */
export function groupSlashCommands(commands: readonly SlashCommand[]): SlashCommandSection[] {
  return SLASH_COMMAND_GROUPS.map((group) => ({
    group,
    items: commands
      .map((command, index) => ({ command, index }))
      .filter(({ command }) => command.group === group),
  })).filter((section) => section.items.length > 0);
}

export type PaletteKeyResult =
  /** Move the highlight; the key is consumed. */
  | { type: 'move'; index: number }
  /** Run the command at index; the key is consumed. */
  | { type: 'run'; index: number }
  /** Close the palette. `consume` false lets the editor handle the key too (Backspace deletes the '/'). */
  | { type: 'close'; consume: boolean }
  /** Not a palette key: the editor handles it. */
  | { type: 'ignore' };

/** Arrows move (wrapping), Enter runs, Escape closes, Backspace on an empty filter closes. */
export function paletteKeyAction(
  key: string,
  state: { query: string; selectedIndex: number; itemCount: number },
): PaletteKeyResult {
  const { itemCount, selectedIndex } = state;
  switch (key) {
    case 'ArrowDown':
      return { type: 'move', index: itemCount === 0 ? 0 : (selectedIndex + 1) % itemCount };
    case 'ArrowUp':
      return {
        type: 'move',
        index: itemCount === 0 ? 0 : (selectedIndex - 1 + itemCount) % itemCount,
      };
    case 'Enter':
      return itemCount === 0
        ? { type: 'close', consume: true }
        : { type: 'run', index: Math.min(selectedIndex, itemCount - 1) };
    case 'Escape':
      return { type: 'close', consume: true };
    case 'Backspace':
      return state.query === '' ? { type: 'close', consume: false } : { type: 'ignore' };
    default:
      return { type: 'ignore' };
  }
}
