import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@client/components/ui/dialog';
import { KEYMAP, SHORTCUT_GROUPS, shortcutLabel, type Shortcut } from '@shared/keymap';

const SHORTCUTS: readonly Shortcut[] = Object.values(KEYMAP);

/** Every shortcut of the app by group, read from the one keymap (@shared/keymap) the bindings use. */
export function ShortcutSheet({
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="max-h-[85dvh] overflow-y-auto sm:max-w-2xl"
        data-testid="shortcut-sheet"
        onCloseAutoFocus={onCloseAutoFocus}
      >
        <DialogTitle>Keyboard shortcuts</DialogTitle>
        <DialogDescription>
          Press ? outside a text field to open this list. Formatting, Blocks, AI and History work in a
          document, as do the General ones marked “editor”.
        </DialogDescription>
        <div className="grid gap-x-8 gap-y-5 sm:grid-cols-2">
          {SHORTCUT_GROUPS.map((group) => (
            <section key={group} aria-labelledby={`shortcut-group-${group}`}>
              <h3 id={`shortcut-group-${group}`} className="mb-2 text-sm font-semibold">
                {group}
              </h3>
              <dl className="grid gap-1.5 text-sm">
                {SHORTCUTS.filter((shortcut) => shortcut.group === group).map((shortcut) => (
                  <div
                    key={shortcut.keys}
                    className="flex items-baseline justify-between gap-3"
                    data-testid="shortcut-row"
                  >
                    <dt className="text-muted-foreground">
                      {shortcut.label}
                      {shortcut.editorOnly && group === 'General' ? (
                        <span className="ml-1 text-xs">(editor)</span>
                      ) : null}
                    </dt>
                    <dd>
                      <kbd className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs whitespace-nowrap">
                        {shortcutLabel(shortcut.keys)}
                      </kbd>
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}
