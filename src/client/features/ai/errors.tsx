import { toast } from '@client/components/ui/use-toast';
import { aiSettingsOpener } from '@client/features/settings';
import { ApiError } from '@client/lib/api';
import {
  AI_NOT_SET_UP_FOR_ADMIN,
  AI_NOT_SET_UP_FOR_MEMBER,
  AI_NOT_SET_UP_TITLE,
  AI_QUOTA_TITLE,
  ERROR_TITLE,
  OPEN_AI_SETTINGS,
} from './messages';

/** A toast with a button stays long enough for the writer to read it and reach the button. */
const ACTION_TOAST_DURATION_MS = 12_000;

/** The toast's action button comes with the toast library, which the editor loads only when it shows a toast. */
async function toastWithAction(
  message: { title: string; description: string },
  action: { label: string; altText: string; onClick: () => void },
): Promise<void> {
  const { ToastAction } = await import('@client/components/ui/toast');
  toast({
    ...message,
    variant: 'destructive',
    duration: ACTION_TOAST_DURATION_MS,
    action: (
      <ToastAction altText={action.altText} onClick={action.onClick}>
        {action.label}
      </ToastAction>
    ),
  });
}

/** The writer's words for an AI call that found no provider (null for any other failure). */
export function aiNotSetUpText(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.code !== 'ai_unavailable') return null;
  return `${AI_NOT_SET_UP_TITLE}. ${aiSettingsOpener() ? AI_NOT_SET_UP_FOR_ADMIN : AI_NOT_SET_UP_FOR_MEMBER}`;
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException
    ? error.name === 'AbortError'
    : (error as Error | null)?.name === 'AbortError';
}

/**
 * Tells the writer why an AI call failed, always: "AI is not set up yet" (503 ai_unavailable) with a button to
 * the AI settings for an admin and who can set it up for a member; the used-up allowance with an upgrade offer
 * (402 quota_exceeded); or the action's own 'Failed to … Please try again.' toast. Only a cancelled call says
 * nothing.
 */
export function reportAiError(error: unknown, fallback: { title?: string; description: string }): void {
  if (isAbort(error)) return;
  if (error instanceof ApiError && error.code === 'ai_unavailable') {
    const openSettings = aiSettingsOpener();
    if (openSettings) {
      void toastWithAction(
        { title: AI_NOT_SET_UP_TITLE, description: AI_NOT_SET_UP_FOR_ADMIN },
        { label: OPEN_AI_SETTINGS, altText: OPEN_AI_SETTINGS, onClick: openSettings },
      );
      return;
    }
    toast({ title: AI_NOT_SET_UP_TITLE, description: AI_NOT_SET_UP_FOR_MEMBER, variant: 'destructive' });
    return;
  }
  if (error instanceof ApiError && error.code === 'quota_exceeded') {
    // The instance allowance (no billing) resets on its own; only a plan quota has an upgrade to offer.
    const upgradable = (error.body as { upgradable?: unknown } | null)?.upgradable === true;
    if (!upgradable) {
      toast({ title: AI_QUOTA_TITLE, description: error.serverMessage, variant: 'destructive' });
      return;
    }
    void toastWithAction(
      { title: AI_QUOTA_TITLE, description: error.serverMessage },
      {
        label: 'Upgrade',
        altText: 'Upgrade your plan',
        onClick: () => window.location.assign('/#pricing'),
      },
    );
    return;
  }
  console.error(error);
  toast({ title: fallback.title ?? ERROR_TITLE, description: fallback.description, variant: 'destructive' });
}
