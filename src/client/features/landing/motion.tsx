import { createContext, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';

const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void): () => void {
  const query = window.matchMedia(REDUCED_MOTION_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** True when the visitor asked the system for less motion; follows changes live. */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(REDUCED_MOTION_QUERY).matches,
    () => false,
  );
}

interface DemoMotion {
  /** Demos animate only when this is true: no reduced-motion preference and not paused by the visitor. */
  animate: boolean;
  reducedMotion: boolean;
  paused: boolean;
  setPaused: (paused: boolean) => void;
}

const DemoMotionContext = createContext<DemoMotion | null>(null);

/**
 * One switch for every animation on the landing page. Reduced motion stops them all; the pause button
 * (WCAG 2.2.2: auto-updating content needs a way to stop it) does the same for anyone.
 */
export function DemoMotionProvider({ children }: { children: React.ReactNode }) {
  const reducedMotion = usePrefersReducedMotion();
  const [paused, setPaused] = useState(false);
  const value = useMemo(
    () => ({ animate: !reducedMotion && !paused, reducedMotion, paused, setPaused }),
    [reducedMotion, paused],
  );
  return <DemoMotionContext.Provider value={value}>{children}</DemoMotionContext.Provider>;
}

export function useDemoMotion(): DemoMotion {
  const value = useContext(DemoMotionContext);
  if (!value) throw new Error('useDemoMotion must be used within a DemoMotionProvider');
  return value;
}

/** Calls `tick` every `ms` while `active`; the latest `tick` is always used. */
export function useInterval(tick: () => void, ms: number, active: boolean): void {
  const saved = useRef(tick);
  useEffect(() => {
    saved.current = tick;
  });
  useEffect(() => {
    if (!active) return;
    const id = window.setInterval(() => saved.current(), ms);
    return () => window.clearInterval(id);
  }, [ms, active]);
}

/**
 * Whether the element is on screen. Demos below the fold stay still until the visitor scrolls to them,
 * which keeps the main thread quiet while the page loads and saves battery.
 */
export function useInView<T extends Element>(): [React.RefCallback<T>, boolean] {
  // Without IntersectionObserver (old browsers, jsdom) everything counts as visible.
  const [inView, setInView] = useState(() => typeof IntersectionObserver === 'undefined');
  const [element, setElement] = useState<T | null>(null);
  useEffect(() => {
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setInView(entry?.isIntersecting ?? false));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, inView];
}
