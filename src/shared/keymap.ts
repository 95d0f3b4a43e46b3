/**
 * Every keyboard shortcut of the app, one meaning per key combination. The editor's own bindings, the quick
 * switcher, the chat toggle and the `?` shortcut sheet all read their keys from here, so the sheet lists what
 * the keys really do. docs/keyboard.md describes the same map for maintainers.
 *
 * Keys use ProseMirror's notation: `Mod-` is Ctrl (⌘ on macOS), then `Alt-`, `Shift-`, and the key's name as
 * `KeyboardEvent.key` spells it (`k`, `Enter`, `ArrowRight`, `/`). A single printable character such as `?` is
 * matched as typed, whatever Shift it takes on the keyboard layout.
 */

export type ShortcutGroup = 'General' | 'Formatting' | 'Blocks' | 'AI' | 'History';

export interface Shortcut {
  keys: string;
  /** What the shortcut does, as the sheet lists it. */
  label: string;
  group: ShortcutGroup;
  /** Only in the document editor (the rest work on every signed-in page). */
  editorOnly: boolean;
}

export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = ['General', 'Formatting', 'Blocks', 'AI', 'History'];

const general = (keys: string, label: string, editorOnly = false): Shortcut => ({
  keys,
  label,
  group: 'General',
  editorOnly,
});
const inEditor = (group: ShortcutGroup, keys: string, label: string): Shortcut => ({
  keys,
  label,
  group,
  editorOnly: true,
});

export const KEYMAP = {
  quickSwitcher: general('Mod-k', 'Find and open a document (quick switcher)'),
  shortcutSheet: general('?', 'Show keyboard shortcuts (outside text fields)'),
  save: general('Mod-s', 'Save now (when auto-save is off)', true),
  commandPalette: inEditor('General', '/', 'Command palette (at the start of a line)'),
  undo: inEditor('General', 'Mod-z', 'Undo'),
  redo: inEditor('General', 'Mod-Shift-z', 'Redo'),
  comment: inEditor('General', 'Mod-Alt-m', 'Comment on the selection'),

  bold: inEditor('Formatting', 'Mod-b', 'Bold'),
  italic: inEditor('Formatting', 'Mod-i', 'Italic'),
  underline: inEditor('Formatting', 'Mod-u', 'Underline'),
  strike: inEditor('Formatting', 'Mod-Shift-s', 'Strikethrough'),
  code: inEditor('Formatting', 'Mod-e', 'Inline code'),
  lineBreak: inEditor('Formatting', 'Shift-Enter', 'Line break in the same paragraph'),

  paragraph: inEditor('Blocks', 'Mod-Alt-0', 'Text'),
  heading1: inEditor('Blocks', 'Mod-Alt-1', 'Heading 1'),
  heading2: inEditor('Blocks', 'Mod-Alt-2', 'Heading 2'),
  heading3: inEditor('Blocks', 'Mod-Alt-3', 'Heading 3'),
  bulletList: inEditor('Blocks', 'Mod-Shift-8', 'Bullet list'),
  orderedList: inEditor('Blocks', 'Mod-Shift-7', 'Numbered list'),
  quote: inEditor('Blocks', 'Mod-Shift-b', 'Quote'),
  codeBlock: inEditor('Blocks', 'Mod-Alt-c', 'Code block'),
  footnote: inEditor('Blocks', 'Mod-Alt-f', 'Footnote at the caret'),
  // In the outline, not the text: there Alt+↑/↓ step through pending suggestions (suggestion-keymap.ts).
  moveSectionUp: inEditor('Blocks', 'Alt-ArrowUp', 'Move the section up (a heading focused in the Outline)'),
  moveSectionDown: inEditor(
    'Blocks',
    'Alt-ArrowDown',
    'Move the section down (a heading focused in the Outline)',
  ),

  // Ctrl/⌘+K is the quick switcher everywhere (as in Notion, Linear and Slack), so AI Complete has its own key.
  aiComplete: inEditor('AI', 'Mod-Shift-Enter', 'AI Complete: continue writing from the cursor'),
  aiRewrite: inEditor('AI', 'Mod-r', 'AI Rewrite the selection'),
  aiAssistant: inEditor('AI', 'Mod-/', 'Open the AI writing assistant'),
  chat: inEditor('AI', 'Mod-j', 'Chat with the document'),
  ghostAccept: inEditor('AI', 'Tab', 'Keep the grey AI suggestion'),
  ghostAcceptWord: inEditor('AI', 'Mod-ArrowRight', 'Keep the next word of the grey suggestion'),
  ghostDismiss: inEditor('AI', 'Escape', 'Dismiss the grey suggestion'),

  history: inEditor('History', 'Mod-Alt-h', 'Version history'),
  saveVersion: inEditor('History', 'Mod-Alt-s', 'Save a named version'),
} as const satisfies Record<string, Shortcut>;

export type ShortcutId = keyof typeof KEYMAP;

interface ParsedKeys {
  mod: boolean;
  alt: boolean;
  shift: boolean;
  key: string;
}

function parse(keys: string): ParsedKeys {
  // The last part is the key itself, so `Mod--` would be Ctrl and "-" (the split leaves an empty part).
  const parts = keys.split('-');
  const key = parts.pop() || '-';
  return { mod: parts.includes('Mod'), alt: parts.includes('Alt'), shift: parts.includes('Shift'), key };
}

/** Whether the platform's command key is ⌘ (macOS, iOS). */
function isApplePlatform(): boolean {
  if (typeof navigator === 'undefined') return false;
  return /Mac|iPhone|iPad|iPod/u.test(navigator.platform || navigator.userAgent);
}

const KEY_NAMES: Record<string, string> = {
  ArrowRight: '→',
  ArrowLeft: '←',
  ArrowUp: '↑',
  ArrowDown: '↓',
  Escape: 'Esc',
};

/** The keys as a person reads them: `Ctrl+Shift+Enter`, or `⌘⇧Enter` on a Mac. */
export function shortcutLabel(keys: string, apple = isApplePlatform()): string {
  const { mod, alt, shift, key } = parse(keys);
  const name = KEY_NAMES[key] ?? (key.length === 1 ? key.toUpperCase() : key);
  if (apple) return `${mod ? '⌘' : ''}${alt ? '⌥' : ''}${shift ? '⇧' : ''}${name}`;
  return [mod && 'Ctrl', alt && 'Alt', shift && 'Shift', name].filter(Boolean).join('+');
}

/** The value of `aria-keyshortcuts` for the keys (both Ctrl and ⌘ where `Mod` is used). */
export function ariaKeyShortcuts(keys: string): string {
  const { mod, alt, shift, key } = parse(keys);
  const rest = [alt && 'Alt', shift && 'Shift', key.length === 1 ? key.toUpperCase() : key]
    .filter(Boolean)
    .join('+');
  return mod ? `Control+${rest} Meta+${rest}` : rest;
}

/**
 * Whether a key event is the shortcut. Ctrl and ⌘ both count as `Mod` (as the editor's bindings do); Alt and
 * Shift must be exactly as written. With Alt, letters and digits are matched by their physical key, since
 * Option changes the typed character on macOS.
 */
export function matchesShortcut(event: KeyboardEvent, keys: string): boolean {
  const { mod, alt, shift, key } = parse(keys);
  if ((event.ctrlKey || event.metaKey) !== mod || event.altKey !== alt) return false;
  const printable = key.length === 1;
  const letterOrDigit = /^[a-z0-9]$/iu.test(key);
  // A symbol such as "?" may need Shift on one layout and not on another: it is matched as typed.
  if (!(printable && !letterOrDigit) && event.shiftKey !== shift) return false;
  if (alt && letterOrDigit) {
    const code = /\d/u.test(key) ? `Digit${key}` : `Key${key.toUpperCase()}`;
    return event.code === code;
  }
  return printable ? event.key.toLowerCase() === key.toLowerCase() : event.key === key;
}

/** Whether the key was typed into something that takes text (where `?` must stay a question mark). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  return element.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]') !== null;
}
