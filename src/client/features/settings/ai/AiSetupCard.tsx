import { SparklesIcon, XIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { toast } from '@client/components/ui/use-toast';
import { useAiHealth } from '@client/features/ai/queries';
import { errorMessage } from '@client/lib/api';
import { useAdminAiSettings, useSaveAiSettings, withLocalServer } from './api';
import { onAiSetupRequested } from './setup-signal';

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
  const settings = useAdminAiSettings(visible);
  const save = useSaveAiSettings();

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
  const detected = settings.data?.detected ?? [];

  return (
    <Card
      role="region"
      aria-label="Set up AI"
      className="fixed right-4 bottom-4 z-40 w-[min(24rem,calc(100vw-2rem))] shadow-lg sm:top-56 sm:bottom-auto"
      data-testid="ai-setup-card"
    >
      <CardHeader className="relative pb-2">
        <CardTitle className="flex items-center gap-2 text-base">
          <SparklesIcon className="size-4" aria-hidden="true" />
          Set up AI
        </CardTitle>
        <CardDescription>
          No AI provider is configured yet. Writers see the AI buttons once you add one.
        </CardDescription>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="absolute top-2 right-2"
          aria-label="Dismiss"
          onClick={close}
        >
          <XIcon aria-hidden="true" />
        </Button>
      </CardHeader>
      <CardContent className="grid gap-3">
        {detected.length > 0 ? (
          <ul className="grid gap-2">
            {detected.map((server) => {
              const model = server.models[0];
              return (
                <li key={server.base_url} className="flex items-center justify-between gap-2 text-sm">
                  <span>
                    <span className="font-medium">{server.name}</span> found on this machine
                    {model ? ` (${model})` : ''}
                  </span>
                  <Button
                    type="button"
                    size="sm"
                    disabled={!model || save.isPending || !settings.data}
                    onClick={() =>
                      save.mutate(withLocalServer(settings.data!, server, model!), {
                        onSuccess: () =>
                          toast({ title: 'AI is ready', description: `Using ${server.name} (${model}).` }),
                        onError: (error) =>
                          toast({
                            title: 'Update Failed',
                            description: errorMessage(error),
                            variant: 'destructive',
                          }),
                      })
                    }
                  >
                    Use {server.name}
                  </Button>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">
            Add OpenAI, Anthropic or a local model server (Ollama, LM Studio, llama.cpp, vLLM).
          </p>
        )}
        <Button type="button" variant="outline" onClick={onOpenSettings}>
          Open AI settings
        </Button>
      </CardContent>
    </Card>
  );
}
