import { lazy, Suspense, useEffect, useState } from 'react';
import { useAiHealth } from '@client/features/ai/queries';
import { onAiSetupRequested } from './setup-signal';

// Few writers ever see the card: its content and the admin settings client load when it is to be shown.
const AiSetupPanel = lazy(() =>
  import('./AiSetupPanel').then((module) => ({ default: module.AiSetupPanel })),
);

const DISMISSED_KEY = 'qw:ai-setup-dismissed';

function wasDismissed(): boolean {
  try {
    return localStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Shown to an admin in the editor while the instance has no AI provider: the local model servers found on
 * this machine with one click to use one, or a way to the AI settings. An AI call that finds no provider
 * opens it again (instead of the "AI is not configured" toast).
 */
export function AiSetupCard({ isAdmin, onOpenSettings }: { isAdmin: boolean; onOpenSettings(): void }) {
  const health = useAiHealth();
  const noProvider = health.data !== undefined && (health.data.providers ?? []).length === 0;
  const [dismissed, setDismissed] = useState(wasDismissed);
  const [requested, setRequested] = useState(false);
  const visible = isAdmin && noProvider && (!dismissed || requested);

  useEffect(() => {
    if (!isAdmin) return;
    return onAiSetupRequested(() => setRequested(true));
  }, [isAdmin]);

  if (!visible) return null;
  const close = () => {
    setDismissed(true);
    setRequested(false);
    try {
      localStorage.setItem(DISMISSED_KEY, '1');
    } catch {
      // Private mode: the card comes back next visit, which is harmless.
    }
  };
  return (
    <Suspense fallback={null}>
      <AiSetupPanel onClose={close} onOpenSettings={onOpenSettings} />
    </Suspense>
  );
}
