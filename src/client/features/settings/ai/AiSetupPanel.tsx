import { Button } from '@client/components/ui/button';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { useAdminAiSettings, useSaveAiSettings, withLocalServer } from './api';

/**
 * The admin's part of the Set up AI notice (see AiSetupNotice): a model server found on this machine, used with
 * one click, and the way to the AI settings.
 */
export function AdminSetupActions({ onOpenSettings }: { onOpenSettings: (() => void) | undefined }) {
  const settings = useAdminAiSettings(true);
  const save = useSaveAiSettings();
  const server = settings.data?.detected.find((found) => found.models.length > 0);
  const model = server?.models[0];

  return (
    <div className="flex flex-wrap items-center gap-2">
      {server && model ? (
        <Button
          type="button"
          size="sm"
          disabled={save.isPending || !settings.data}
          title={`${server.name} found on this machine (${model})`}
          onClick={() =>
            save.mutate(withLocalServer(settings.data!, server, model), {
              onSuccess: () =>
                toast({ title: 'AI is ready', description: `Using ${server.name} (${model}).` }),
              onError: (error) =>
                toast({ title: 'Update Failed', description: errorMessage(error), variant: 'destructive' }),
            })
          }
        >
          Use {server.name} ({model})
        </Button>
      ) : null}
      {onOpenSettings ? (
        <Button type="button" size="sm" variant="outline" onClick={onOpenSettings}>
          Open AI settings
        </Button>
      ) : null}
    </div>
  );
}
