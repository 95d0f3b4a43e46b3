import { SparklesIcon, XIcon } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { useAdminAiSettings, useSaveAiSettings, withLocalServer } from './api';

/** The Set up AI card's content (see AiSetupCard, which decides when it shows). */
export function AiSetupPanel({ onClose, onOpenSettings }: { onClose(): void; onOpenSettings(): void }) {
  const settings = useAdminAiSettings(true);
  const save = useSaveAiSettings();
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
          onClick={onClose}
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
