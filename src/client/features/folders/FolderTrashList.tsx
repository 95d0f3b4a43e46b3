import { FolderIcon, Loader2Icon, RotateCcwIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import type { TrashedFolder } from '@shared/schemas/folders';
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
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { useFolderTrashActions, useTrashedFolders } from './queries';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What went to the trash with a folder: '2 documents, 1 sub-folder', or 'Empty'. */
function contentsOf(folder: TrashedFolder): string {
  const parts = [];
  if (folder.documentCount > 0) parts.push(plural(folder.documentCount, 'document', 'documents'));
  if (folder.folderCount > 0) parts.push(plural(folder.folderCount, 'sub-folder', 'sub-folders'));
  return parts.length > 0 ? parts.join(', ') : 'Empty';
}

/**
 * The trash's deleted folders, each with what went with it, to restore (all of it comes back) or delete for good.
 * `describe` gives the dates line the trash shows for documents.
 */
export function FolderTrashList({ describe }: { describe(trashedAt: string, purgeAt: string): string }) {
  const trash = useTrashedFolders();
  const actions = useFolderTrashActions();
  const [pending, setPending] = useState<TrashedFolder | null>(null);
  const folders = trash.data?.folders ?? [];
  if (folders.length === 0) return null;

  const restore = (folder: TrashedFolder) =>
    actions.restore.mutate(folder.id, {
      onSuccess: () =>
        toast({ title: 'Folder restored', description: `'${folder.name}' is back with everything in it.` }),
      onError: (error) => toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' }),
    });
  const deleteForever = () => {
    const folder = pending;
    if (!folder) return;
    actions.deleteForever.mutate(folder.id, {
      onSuccess: () => {
        setPending(null);
        toast({ title: 'Deleted forever' });
      },
      onError: (error) => {
        setPending(null);
        toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
      },
    });
  };

  return (
    <section aria-labelledby="trashed-folders" className="mb-6">
      <h2 id="trashed-folders" className="mb-2 text-sm font-semibold text-muted-foreground">
        Folders
      </h2>
      <ul className="divide-y rounded-xl border bg-card" aria-label="Deleted folders">
        {folders.map((folder) => (
          <li key={folder.id} className="flex flex-wrap items-center gap-3 p-4" data-testid="trashed-folder">
            <span className="grid size-9 shrink-0 place-items-center rounded-lg bg-muted text-muted-foreground">
              <FolderIcon className="size-4" aria-hidden="true" />
            </span>
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium">{folder.name}</p>
              <p className="text-xs text-muted-foreground">
                {contentsOf(folder)} · {describe(folder.trashedAt, folder.purgeAt)}
              </p>
            </div>
            <div className="flex gap-2">
              <Button
                variant="outline"
                size="sm"
                onClick={() => restore(folder)}
                disabled={actions.restore.isPending}
                aria-label={`Restore ${folder.name}`}
              >
                <RotateCcwIcon aria-hidden="true" />
                Restore
              </Button>
              <Button
                variant="ghost"
                size="sm"
                className="text-destructive hover:text-destructive"
                onClick={() => setPending(folder)}
                aria-label={`Delete ${folder.name} forever`}
              >
                <Trash2Icon aria-hidden="true" />
                Delete forever
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <AlertDialog
        open={pending !== null}
        onOpenChange={(open) => !open && !actions.deleteForever.isPending && setPending(null)}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete forever?</AlertDialogTitle>
            <AlertDialogDescription>
              &apos;{pending?.name}&apos; and everything in it, with the documents&apos; version history, will
              be deleted. This cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={actions.deleteForever.isPending}>Cancel</AlertDialogCancel>
            <Button variant="destructive" onClick={deleteForever} disabled={actions.deleteForever.isPending}>
              {actions.deleteForever.isPending ? (
                <Loader2Icon className="animate-spin" aria-hidden="true" />
              ) : null}
              Delete forever
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </section>
  );
}
