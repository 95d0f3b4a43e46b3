import { lazy, Suspense, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useToast } from './use-toast';

const Toaster = lazy(async () => ({ default: (await import('./toaster')).Toaster }));

/** After the page settles, fetch the toast UI so the first toast shows without a network wait. */
const PREFETCH_DELAY_MS = 3_000;

/**
 * Mounts the Radix toast UI when the first toast is raised (the store is plain JS and keeps the toast until the
 * UI arrives), so pages that never toast don't pay for it in their first bundle.
 */
export function LazyToaster() {
  const { toasts } = useToast();
  const [needed, setNeeded] = useState(false);
  if (toasts.length > 0 && !needed) setNeeded(true);

  useEffect(() => {
    const id = window.setTimeout(() => void import('./toaster').catch(() => {}), PREFETCH_DELAY_MS);
    return () => window.clearTimeout(id);
  }, []);

  // A body-level container that exists from the start: a modal dialog hides everything outside itself from
  // assistive technology (aria-hidden on #root) except [aria-live] regions present when it opens, so toasts
  // raised while a dialog is open (sign-in errors) are still announced and reachable.
  return createPortal(
    <div aria-live="off" data-slot="toaster-root">
      {needed ? (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      ) : null}
    </div>,
    document.body,
  );
}
