import { Keyboard } from 'lucide-react';
import { KEYMAP, shortcutLabel } from '@shared/keymap';
import { openShortcutSheet } from '@client/features/shortcuts';

const HINTS = [
  { keys: KEYMAP.bold.keys, label: 'Bold' },
  { keys: KEYMAP.italic.keys, label: 'Italic' },
  { keys: KEYMAP.aiAssistant.keys, label: 'AI assist' },
  { keys: KEYMAP.commandPalette.keys, label: 'Commands' },
];

/** The shortcuts hint box (hidden in focus mode); its button opens the full list. */
export function ShortcutsHint() {
  return (
    <div
      className="fixed bottom-4 left-4 z-20 hidden rounded-lg border bg-background/95 p-3 text-xs shadow-sm backdrop-blur lg:block"
      aria-label="Keyboard shortcuts"
      data-testid="shortcuts-hint"
    >
      <div className="mb-2 flex items-center gap-1.5 font-medium">
        <Keyboard className="size-3.5" aria-hidden /> Shortcuts
      </div>
      <ul className="space-y-1">
        {HINTS.map((hint) => (
          <li key={hint.keys} className="flex items-center justify-between gap-4 text-muted-foreground">
            <span>{hint.label}</span>
            <kbd className="rounded border bg-muted px-1.5 font-mono text-[10px]">
              {shortcutLabel(hint.keys)}
            </kbd>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="mt-2 text-primary underline-offset-4 hover:underline"
        onClick={openShortcutSheet}
      >
        All shortcuts (?)
      </button>
    </div>
  );
}
