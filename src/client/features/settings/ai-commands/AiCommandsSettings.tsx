import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { AI_COMMAND_INSTRUCTION_MAX, AI_COMMAND_NAME_MAX, AI_COMMANDS_PER_USER } from '@shared/constants';
import {
  AI_COMMAND_ICONS,
  type AiCommand,
  type AiCommandIcon,
  type AiCommandInput,
} from '@shared/schemas/ai-commands';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@client/components/ui/alert-dialog';
import { Button } from '@client/components/ui/button';
import { ChoiceGroup, ChoiceItem } from '@client/components/ui/choice-group';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Skeleton } from '@client/components/ui/skeleton';
import { Switch } from '@client/components/ui/switch';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import {
  AI_COMMAND_ICON,
  AI_COMMAND_ICON_LABEL,
  useAiCommandMutations,
  useAiCommands,
} from '@client/features/ai-commands';

const BLANK: AiCommandInput = {
  name: '',
  instruction: '',
  icon: 'sparkles',
  showInSlash: true,
  showInSelection: true,
};

/** Settings → AI commands: the writer's own instructions for the AI, offered in the palette and the helper. */
export function AiCommandsSettings() {
  const { commands, isPending, isError, error } = useAiCommands();
  const { remove } = useAiCommandMutations();
  /** The command being edited: an id, 'new', or nothing. */
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<AiCommand | null>(null);
  const full = commands.length >= AI_COMMANDS_PER_USER;

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast({ title: 'Command deleted', description: `“${deleting.name}” is no longer offered.` });
    } catch (failure) {
      toast({ title: 'Error', description: errorMessage(failure), variant: 'destructive' });
    } finally {
      setDeleting(null);
    }
  };

  if (isPending)
    return (
      <div className="space-y-2" aria-busy="true">
        <Skeleton className="h-14 w-full" />
        <Skeleton className="h-14 w-full" />
      </div>
    );
  if (isError) return <p role="alert">{errorMessage(error)}</p>;

  return (
    <div className="space-y-4" data-testid="ai-commands-settings">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="max-w-md text-sm text-muted-foreground">
          Your own instructions for the AI. They run on the selection (or the paragraph at the cursor) from
          the slash palette or the selection helper, and their changes arrive as suggestions.
        </p>
        <Button
          type="button"
          size="sm"
          disabled={full || editing === 'new'}
          title={full ? `You can keep up to ${AI_COMMANDS_PER_USER} commands.` : undefined}
          onClick={() => setEditing('new')}
        >
          <Plus aria-hidden="true" /> New command
        </Button>
      </div>
      <p className="text-xs text-muted-foreground" aria-live="polite">
        {commands.length} of {AI_COMMANDS_PER_USER} commands
      </p>
      {editing === 'new' && <CommandForm initial={BLANK} onDone={() => setEditing(null)} />}
      <ul className="max-h-[45dvh] space-y-2 overflow-y-auto pr-1" aria-label="Your AI commands">
        {commands.map((command) =>
          editing === command.id ? (
            <li key={command.id}>
              <CommandForm initial={command} commandId={command.id} onDone={() => setEditing(null)} />
            </li>
          ) : (
            <CommandRow
              key={command.id}
              command={command}
              onEdit={() => setEditing(command.id)}
              onDelete={() => setDeleting(command)}
            />
          ),
        )}
      </ul>
      <AlertDialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete “{deleting?.name}”?</AlertDialogTitle>
            <AlertDialogDescription>
              The command disappears from the slash palette and the selection helper. Changes it already
              suggested stay in your documents.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={() => void confirmDelete()}>Delete</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

function CommandRow(props: { command: AiCommand; onEdit(): void; onDelete(): void }) {
  const { command, onEdit, onDelete } = props;
  const Icon = AI_COMMAND_ICON[command.icon];
  const places = [command.showInSlash && 'Slash palette', command.showInSelection && 'Selection helper']
    .filter(Boolean)
    .join(' · ');
  return (
    <li className="flex items-start gap-3 rounded-lg border p-3" data-testid="ai-command">
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
      <div className="min-w-0 flex-1">
        <p className="font-medium">{command.name}</p>
        <p className="line-clamp-2 text-sm text-muted-foreground">{command.instruction}</p>
        <p className="mt-1 text-xs text-muted-foreground">{places || 'Not offered anywhere'}</p>
      </div>
      <Button type="button" variant="ghost" size="icon" aria-label={`Edit ${command.name}`} onClick={onEdit}>
        <Pencil aria-hidden="true" />
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        aria-label={`Delete ${command.name}`}
        onClick={onDelete}
      >
        <Trash2 aria-hidden="true" />
      </Button>
    </li>
  );
}

function CommandForm(props: { initial: AiCommandInput; commandId?: string; onDone(): void }) {
  const { initial, commandId, onDone } = props;
  const { add, change } = useAiCommandMutations();
  const [draft, setDraft] = useState<AiCommandInput>(initial);
  const id = useId();
  const saving = add.isPending || change.isPending;
  const set = <K extends keyof AiCommandInput>(key: K, value: AiCommandInput[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      if (commandId) await change.mutateAsync({ id: commandId, input: draft });
      else await add.mutateAsync(draft);
      toast({ title: 'Command saved', description: `“${draft.name.trim()}” is ready to use.` });
      onDone();
    } catch (failure) {
      toast({ title: 'Error', description: errorMessage(failure), variant: 'destructive' });
    }
  };

  return (
    <form
      onSubmit={(event) => void submit(event)}
      className="space-y-3 rounded-lg border bg-muted/30 p-3"
      aria-label={commandId ? `Edit ${initial.name}` : 'New command'}
    >
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-name`}>Name</Label>
        <Input
          id={`${id}-name`}
          value={draft.name}
          maxLength={AI_COMMAND_NAME_MAX}
          required
          placeholder="Make it friendlier"
          onChange={(event) => set('name', event.target.value)}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-instruction`}>Instruction</Label>
        <Textarea
          id={`${id}-instruction`}
          value={draft.instruction}
          maxLength={AI_COMMAND_INSTRUCTION_MAX}
          required
          rows={3}
          placeholder="Rewrite the text in a warm, friendly tone without changing what it says."
          onChange={(event) => set('instruction', event.target.value)}
        />
      </div>
      <fieldset className="space-y-1.5">
        <legend className="text-sm font-medium">Icon</legend>
        <ChoiceGroup
          className="flex flex-wrap gap-1"
          aria-label="Icon"
          value={draft.icon}
          onValueChange={(value) => set('icon', value as AiCommandIcon)}
        >
          {AI_COMMAND_ICONS.map((icon) => {
            const Icon = AI_COMMAND_ICON[icon];
            return (
              <ChoiceItem
                key={icon}
                value={icon}
                aria-label={AI_COMMAND_ICON_LABEL[icon]}
                title={AI_COMMAND_ICON_LABEL[icon]}
                className="flex size-9 items-center justify-center rounded-md border bg-background hover:bg-accent data-[state=checked]:border-primary data-[state=checked]:ring-2 data-[state=checked]:ring-primary/30"
              >
                <Icon aria-hidden="true" className="size-4" />
              </ChoiceItem>
            );
          })}
        </ChoiceGroup>
      </fieldset>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-slash`}
            checked={draft.showInSlash}
            onCheckedChange={(checked) => set('showInSlash', checked)}
          />
          <Label htmlFor={`${id}-slash`}>Show in the slash palette</Label>
        </div>
        <div className="flex items-center gap-2">
          <Switch
            id={`${id}-selection`}
            checked={draft.showInSelection}
            onCheckedChange={(checked) => set('showInSelection', checked)}
          />
          <Label htmlFor={`${id}-selection`}>Show in the selection helper</Label>
        </div>
      </div>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" size="sm" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" size="sm" disabled={saving || !draft.name.trim() || !draft.instruction.trim()}>
          Save command
        </Button>
      </div>
    </form>
  );
}
