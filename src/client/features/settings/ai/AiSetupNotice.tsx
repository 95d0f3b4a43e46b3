import { SparklesIcon, XIcon } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Button } from '@client/components/ui/button';
import { useUpdateUserSettings, useUserSettings } from '@client/features/settings/queries';
import { useAiHealth } from './health';
import { aiSettingsOpener } from './setup-signal';

// Only an admin on an instance without AI sees the local servers found: that part and the admin settings
// client load then.
const AdminSetupActions = lazy(() =>
  import('./AiSetupPanel').then((module) => ({ default: module.AdminSetupActions })),
);

/**
 * One line under the AI toolbar while the instance has no AI provider: for an admin, what to do (a local model
 * server found on this machine with one click to use it, or the AI settings); for a member, who can set AI up.
 * It sits in the page's flow, never over the text or another control. Closing it is kept with the user's
 * settings on the server, so it stays closed in every browser.
 */
export function AiSetupNotice({ isAdmin }: { isAdmin: boolean }) {
  const health = useAiHealth();
  const { preferences, loaded } = useUserSettings();
  const update = useUpdateUserSettings();
  const noProvider = health.data !== undefined && (health.data.providers ?? []).length === 0;
  if (!noProvider || !loaded || preferences.aiSetupNoticeDismissed) return null;
  const openSettings = isAdmin ? aiSettingsOpener() : undefined;

  return (
    <section
      aria-label="Set up AI"
      data-testid="ai-setup-notice"
      className="flex flex-wrap items-center gap-x-3 gap-y-1.5 border-t bg-muted/40 px-3 py-1.5 text-sm sm:px-4"
    >
      <SparklesIcon className="size-4 shrink-0 text-primary" aria-hidden="true" />
      <p className="min-w-0 flex-1 text-muted-foreground">
        {isAdmin ? (
          <>
            <span className="font-medium text-foreground">AI is not set up yet.</span> The AI actions answer
            once you add a provider.
          </>
        ) : (
          <>
            <span className="font-medium text-foreground">AI is not set up yet.</span> An admin can add a
            provider in Settings → AI.
          </>
        )}
      </p>
      {isAdmin ? (
        // On a phone the buttons take the second line, and the close button stays beside the text.
        <div className="order-last basis-full sm:order-none sm:basis-auto">
          <Suspense fallback={null}>
            <AdminSetupActions onOpenSettings={openSettings} />
          </Suspense>
        </div>
      ) : null}
      <Button
        type="button"
        variant="ghost"
        size="icon-sm"
        className="shrink-0 sm:order-last"
        aria-label="Dismiss"
        onClick={() => update.mutate({ preferences: { aiSetupNoticeDismissed: true } })}
      >
        <XIcon aria-hidden="true" />
      </Button>
    </section>
  );
}
