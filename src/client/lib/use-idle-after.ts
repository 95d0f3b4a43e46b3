import { useEffect, useState } from 'react';
import { whenIdle } from './when-idle';

/**
 * How long a page part that is not needed to read or type waits for idle time before it is fetched and mounted
 * anyway. Opening a long document keeps the main thread busy for a few hundred milliseconds; fetching menus,
 * bubbles and plugins inside that work (a module preload per chunk, then compiling and running each chunk as it
 * arrives) made the opening longer (bench:editor, opening).
 */
export const PAGE_EXTRAS_IDLE_TIMEOUT_MS = 1_000;

/**
 * False until `condition` has held and the browser has then been idle (at most PAGE_EXTRAS_IDLE_TIMEOUT_MS
 * later); true from then on, even if `condition` turns false again.
 */
export function useIdleAfter(condition: boolean): boolean {
  const [passed, setPassed] = useState(false);
  useEffect(() => {
    if (!condition || passed) return;
    return whenIdle(() => setPassed(true), PAGE_EXTRAS_IDLE_TIMEOUT_MS);
  }, [condition, passed]);
  return passed;
}
