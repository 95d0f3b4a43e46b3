import { lazy, Suspense, useEffect, useState } from 'react';
import { KEYMAP, matchesShortcut } from '@shared/keymap';

// The dialog brings the dialog library: fetched the first time the shortcut is pressed.
const QuickSwitcherDialog = lazy(() =>
  import('./QuickSwitcherDialog').then((module) => ({ default: module.QuickSwitcherDialog })),
);

/**
 * Ctrl/⌘+K (KEYMAP.quickSwitcher) opens it anywhere on the page, on the dashboard and in the editor alike.
 * Typing searches titles and text; arrows move, Enter opens. With nothing typed it offers the most recently
 * updated documents.
 */
export function QuickSwitcher({ currentId }: { currentId?: string }) {
  const [open, setOpen] = useState(false);
  // Kept mounted after the first open, so the dialog can animate closed.
  const [mounted, setMounted] = useState(false);
  if (open && !mounted) setMounted(true);
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (matchesShortcut(event, KEYMAP.quickSwitcher.keys)) {
        event.preventDefault();
        setOpen((wasOpen) => !wasOpen);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  return mounted ? (
    <Suspense fallback={null}>
      <QuickSwitcherDialog open={open} onOpenChange={setOpen} currentId={currentId} />
    </Suspense>
  ) : null;
}
