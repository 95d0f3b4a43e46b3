import { lazy, Suspense, useEffect, useState } from 'react';

// The dialog brings the dialog library: fetched the first time the shortcut is pressed.
const QuickSwitcherDialog = lazy(() =>
  import('./QuickSwitcherDialog').then((module) => ({ default: module.QuickSwitcherDialog })),
);

/**
 * Ctrl/⌘ + `shortcutKey` opens it anywhere on the page (K on the dashboard; P in the editor, where
 * Ctrl+K is the link shortcut). Typing searches titles and text; arrows move, Enter opens. With nothing
 * typed it offers the most recently updated documents.
 */
export function QuickSwitcher({ shortcutKey, currentId }: { shortcutKey: 'k' | 'p'; currentId?: string }) {
  const [open, setOpen] = useState(false);
  // Kept mounted after the first open, so the dialog can animate closed.
  const [mounted, setMounted] = useState(false);
  if (open && !mounted) setMounted(true);
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (
        (event.ctrlKey || event.metaKey) &&
        !event.altKey &&
        !event.shiftKey &&
        event.key.toLowerCase() === shortcutKey
      ) {
        event.preventDefault();
        setOpen((wasOpen) => !wasOpen);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [shortcutKey]);
  return mounted ? (
    <Suspense fallback={null}>
      <QuickSwitcherDialog open={open} onOpenChange={setOpen} currentId={currentId} />
    </Suspense>
  ) : null;
}
