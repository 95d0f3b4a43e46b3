import { useEffect, useState } from 'react';

/**
 * How far the mouse travels before focus mode shows the header and toolbar again: a hand resting on the mouse
 * or a trackpad's jitter must not bring them back while the writer types.
 */
const FOCUS_CHROME_REVEAL_DISTANCE_PX = 24;

/** What an Escape closes first, when one is open. */
const ESCAPE_TAKEN_BY = '[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"], .ghost-text';

/**
 * Focus mode's chrome: returns whether the header and toolbar are hidden. They hide when focus mode starts and
 * whenever the writer types; a mouse movement brings them back; Escape (not taken by a menu, dialog or the
 * palette) leaves focus mode through `onExit`.
 */
export function useFocusModeChrome(focusMode: boolean, onExit: () => void): boolean {
  const [revealed, setRevealed] = useState(false);
  const [previousMode, setPreviousMode] = useState(focusMode);
  if (previousMode !== focusMode) {
    setPreviousMode(focusMode);
    setRevealed(false);
  }

  useEffect(() => {
    if (!focusMode) return;
    let travelled = 0;
    let last: { x: number; y: number } | null = null;
    const onMouseMove = (event: MouseEvent) => {
      if (last) travelled += Math.hypot(event.clientX - last.x, event.clientY - last.y);
      last = { x: event.clientX, y: event.clientY };
      if (travelled >= FOCUS_CHROME_REVEAL_DISTANCE_PX) setRevealed(true);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        // Seen before the editor's handlers (ProseMirror takes every Escape): an open palette, menu, dialog or
        // ghost completion is what this Escape closes.
        if (!isWritingSurface(event.target) || document.querySelector(ESCAPE_TAKEN_BY)) return;
        onExit();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey || !isWritingSurface(event.target)) return;
      travelled = 0;
      last = null;
      setRevealed(false);
    };
    window.addEventListener('mousemove', onMouseMove, { passive: true });
    window.addEventListener('keydown', onKeyDown, true);
    return () => {
      window.removeEventListener('mousemove', onMouseMove);
      window.removeEventListener('keydown', onKeyDown, true);
    };
  }, [focusMode, onExit]);

  return focusMode && !revealed;
}

/** The text, the title or the page itself: not a menu, dialog or field where Escape and keys mean something else. */
function isWritingSurface(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return true;
  if (target === document.body) return true;
  return target.closest('.ProseMirror, [data-testid="title-input"]') !== null;
}
