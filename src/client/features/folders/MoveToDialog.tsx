import { FolderIcon, LibraryIcon, Loader2Icon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { displayTitle } from '@client/lib/document-title';
import { useFolderActions, useFolders } from './queries';
import { folderLines } from './tree';

const TOP_LEVEL = '';

/**
 * "Move to…": the keyboard's way to move a document (dragging its card is the mouse's). The places are radio
 * buttons: arrow keys choose, Enter moves.
 */
export function MoveToDialog({
  document,
  onClose,
}: {
  document: { id: string; title: string; folder_id?: string | null | undefined } | null;
  onClose(): void;
}) {
  const folders = useFolders();
  const { place } = useFolderActions();
  const [choice, setChoice] = useState(TOP_LEVEL);
  // Each opening starts at the document's own folder (state adjusted while rendering, not in an effect).
  const [openedFor, setOpenedFor] = useState(document);
  if (document !== openedFor) {
    setOpenedFor(document);
    setChoice(document?.folder_id ?? TOP_LEVEL);
  }
  const lines = folderLines(folders.data?.folders ?? []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!document || place.isPending) return;
    const target = lines.find((line) => line.folder.id === choice)?.folder ?? null;
    place.mutate(
      { documentId: document.id, folderId: target?.id ?? null },
      {
        onSuccess: () => {
          toast({ title: target ? `Moved to ${target.name}` : 'Moved out of folders' });
          onClose();
        },
        onError: (error) =>
          toast({ title: 'Error moving document', description: errorMessage(error), variant: 'destructive' }),
      },
    );
  };

  const option = (value: string, label: string, depth: number, icon: 'top' | 'folder') => (
    <label
      key={value || 'top'}
      className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-accent has-[:checked]:bg-accent has-[:checked]:font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
      style={{ paddingLeft: `${0.5 + depth * 1}rem` }}
    >
      <input
        type="radio"
        name="move-to"
        value={value}
        checked={choice === value}
        onChange={() => setChoice(value)}
        className="sr-only"
      />
      {icon === 'top' ? (
        <LibraryIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      ) : (
        <FolderIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      )}
      <span className="truncate">{label}</span>
    </label>
  );

  return (
    <Dialog open={document !== null} onOpenChange={(open) => !open && !place.isPending && onClose()}>
      <DialogContent className="sm:max-w-md">
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Move to…</DialogTitle>
            <DialogDescription>
              Choose where &apos;{displayTitle(document?.title)}&apos; goes.
            </DialogDescription>
          </DialogHeader>
          <fieldset className="grid max-h-72 gap-0.5 overflow-y-auto rounded-md border p-1">
            <legend className="sr-only">Folder</legend>
            {option(TOP_LEVEL, 'No folder (top level)', 0, 'top')}
            {lines.map(({ folder, depth }) => option(folder.id, folder.name, depth, 'folder'))}
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={place.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={place.isPending}>
              {place.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
              Move
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
