import { Keyboard } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { cn } from '@client/lib/utils';
import { ariaKeyShortcuts, KEYMAP, shortcutLabel } from '@shared/keymap';
import { openShortcutSheet } from './open-shortcut-sheet';

/**
 * Opens the keyboard shortcut sheet: the way to it where no hint box shows (on a phone or tablet, which may
 * have a keyboard attached) and for those who do not know about `?`.
 */
export function ShortcutSheetButton({ className }: { className?: string }) {
  const keys = KEYMAP.shortcutSheet.keys;
  return (
    <Button
      variant="outline"
      size="sm"
      className={cn('px-2', className)}
      onClick={openShortcutSheet}
      aria-label="Keyboard shortcuts"
      aria-keyshortcuts={ariaKeyShortcuts(keys)}
      title={`Keyboard shortcuts (${shortcutLabel(keys)})`}
    >
      <Keyboard aria-hidden />
    </Button>
  );
}
