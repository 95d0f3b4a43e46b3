import { Loader2Icon } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { MAX_FOLDER_NAME_LENGTH, TRASH_RETENTION_DAYS_DEFAULT } from '@shared/constants';
import type { Folder } from '@shared/schemas/folders';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@client/components/ui/alert-dialog';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { useTrash } from '@client/features/documents';
import { useFolderActions } from './queries';

/** "New folder" (at the top level or inside `parent`) and "Rename folder". */
export function FolderNameDialog({
  editing,
  onDone,
}: {
  editing: { kind: 'create'; parent: Folder | null } | { kind: 'rename'; folder: Folder } | null;
  /** Called with the folder made or renamed, or null when cancelled. */
  onDone(folder: Folder | null): void;
}) {
  const { create, update } = useFolderActions();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const pending = create.isPending || update.isPending;

  // A new opening starts from the folder's name (or none): state adjusted while rendering, not in an effect.
  const [openedFor, setOpenedFor] = useState(editing);
  if (editing !== openedFor) {
    setOpenedFor(editing);
    setName(editing?.kind === 'rename' ? editing.folder.name : '');
    setError(null);
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!editing || pending) return;
    const trimmed = name.trim();
    if (!trimmed) return setError('Enter a folder name');
    const onError = (failure: unknown) => setError(errorMessage(failure));
    if (editing.kind === 'create') {
      create.mutate({ name: trimmed, parentId: editing.parent?.id ?? null }, { onSuccess: onDone, onError });
    } else {
      update.mutate({ id: editing.folder.id, name: trimmed }, { onSuccess: onDone, onError });
    }
  };

  const title = editing?.kind === 'rename' ? 'Rename folder' : 'New folder';
  return (
    <Dialog open={editing !== null} onOpenChange={(open) => !open && !pending && onDone(null)}>
      <DialogContent className="sm:max-w-md">
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>
              {editing?.kind === 'create' && editing.parent
                ? `Inside '${editing.parent.name}'.`
                : editing?.kind === 'create'
                  ? 'At the top level of your documents.'
                  : 'Give the folder a new name.'}
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={inputId}>Folder name</Label>
            <Input
              id={inputId}
              value={name}
              maxLength={MAX_FOLDER_NAME_LENGTH}
              onChange={(event) => {
                setName(event.target.value);
                setError(null);
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
              autoComplete="off"
              autoFocus
            />
            {error ? (
              <p id={`${inputId}-error`} className="text-sm text-destructive" role="alert">
                {error}
              </p>
            ) : null}
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onDone(null)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
              {editing?.kind === 'rename' ? 'Rename' : 'Create folder'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Asks before deleting a folder, saying that everything in it goes to the trash too. */
export function DeleteFolderDialog({
  folder,
  onDone,
}: {
  folder: Folder | null;
  onDone(deleted: boolean): void;
}) {
  const { remove } = useFolderActions();
  const days = useTrash(1, folder !== null).data?.retentionDays ?? TRASH_RETENTION_DAYS_DEFAULT;
  const confirm = () => {
    if (!folder) return;
    remove.mutate(folder.id, {
      onSuccess: () => {
        toast({
          title: 'Folder moved to trash',
          description: `'${folder.name}' and everything in it are in the trash.`,
        });
        onDone(true);
      },
      onError: (error) => {
        toast({ title: 'Error deleting folder', description: errorMessage(error), variant: 'destructive' });
        onDone(false);
      },
    });
  };
  return (
    <AlertDialog open={folder !== null} onOpenChange={(open) => !open && !remove.isPending && onDone(false)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete folder?</AlertDialogTitle>
          <AlertDialogDescription>
            &apos;{folder?.name}&apos; and everything in it, its sub-folders and documents, will be moved to
            the trash. You can restore them from there for {days} days.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={confirm} disabled={remove.isPending}>
            {remove.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
            Move to trash
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
