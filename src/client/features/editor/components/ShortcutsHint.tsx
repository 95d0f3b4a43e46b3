import { Keyboard } from 'lucide-react';

const HINTS = [
  { keys: 'Ctrl+B', label: 'Bold' },
  { keys: 'Ctrl+I', label: 'Italic' },
  { keys: 'Ctrl+/', label: 'AI assist' },
  { keys: '/', label: 'Commands' },
];

/** SPEC §2 shortcuts hint box (hidden in focus mode). */
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
            <kbd className="rounded border bg-muted px-1.5 font-mono text-[10px]">{hint.keys}</kbd>
          </li>
        ))}
      </ul>
    </div>
  );
}
