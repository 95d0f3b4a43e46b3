// The keyboard shortcut sheet's entry points for the pages: the host that opens it on `?` or on request, and the
// buttons' way to ask for it.
export { ShortcutSheetButton } from './ShortcutSheetButton';
export { ShortcutSheetHost } from './ShortcutSheetHost';
export { openShortcutSheet } from './open-shortcut-sheet';
