import { toast } from '@client/components/ui/use-toast';
import { requestAiSetup } from '@client/features/settings/ai/setup-signal';
import { ApiError } from '@client/lib/api';
import { AI_NOT_CONFIGURED_TITLE, AI_QUOTA_TITLE, ERROR_TITLE } from './messages';

/** The toast's action button comes with the toast library, which the editor loads only when it shows a toast. */
async function offerUpgrade(description: string): Promise<void> {
  const { ToastAction } = await import('@client/components/ui/toast');
  toast({
    title: AI_QUOTA_TITLE,
    description,
    variant: 'destructive',
    action: (
      <ToastAction altText="Upgrade your plan" onClick={() => window.location.assign('/#pricing')}>
        Upgrade
      </ToastAction>
    ),
  });
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException
    ? error.name === 'AbortError'
    : (error as Error | null)?.name === 'AbortError';
}

/**
 * Tells the writer why an AI call failed: "AI is not configured" (503 ai_unavailable, with the server's
 * message naming the variables to set), the used-up allowance with an upgrade offer (402 quota_exceeded), or
 * the action's own SPEC §8 toast. A cancelled call says nothing.
 */
export function reportAiError(error: unknown, fallback: { title?: string; description: string }): void {
  if (isAbort(error)) return;
  if (error instanceof ApiError && error.code === 'ai_unavailable') {
    // An admin in the editor gets the setup card instead.
    if (requestAiSetup()) return;
    toast({ title: AI_NOT_CONFIGURED_TITLE, description: error.serverMessage, variant: 'destructive' });
    return;
  }
  if (error instanceof ApiError && error.code === 'quota_exceeded') {
    // The instance allowance (no billing) resets on its own; only a plan quota has an upgrade to offer.
    const upgradable = (error.body as { upgradable?: unknown } | null)?.upgradable === true;
    if (!upgradable) {
      toast({ title: AI_QUOTA_TITLE, description: error.serverMessage, variant: 'destructive' });
      return;
    }
    void offerUpgrade(error.serverMessage);
    return;
  }
  console.error(error);
  toast({ title: fallback.title ?? ERROR_TITLE, description: fallback.description, variant: 'destructive' });
}
