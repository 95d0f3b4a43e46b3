import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { isTypingTarget, KEYMAP, matchesShortcut } from '@shared/keymap';
import { onShortcutSheetRequested } from './open-shortcut-sheet';

// The dialog library comes with the first opening, not with the page.
const ShortcutSheet = lazy(() =>
  import('./ShortcutSheet').then((module) => ({ default: module.ShortcutSheet })),
);

/**
 * Opens the shortcut sheet on `?` typed outside a text field (in the document, `?` is a question mark), or
 * when a Keyboard shortcuts button asks for it (openShortcutSheet).
 */
export function ShortcutSheetHost() {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  if (open && !mounted) setMounted(true);
  // The sheet has no trigger of its own: on closing, focus goes back to where it was (the button that opened it,
  // or the page), not to the top of the page.
  const returnFocusTo = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const show = () => {
      returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setOpen(true);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target)) return;
      if (!matchesShortcut(event, KEYMAP.shortcutSheet.keys)) return;
      event.preventDefault();
      show();
    };
    window.addEventListener('keydown', onKeyDown);
    const stopListening = onShortcutSheetRequested(show);
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      stopListening();
    };
  }, []);
  return mounted ? (
    <Suspense fallback={null}>
      <ShortcutSheet
        open={open}
        onOpenChange={setOpen}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      />
    </Suspense>
  ) : null;
}
