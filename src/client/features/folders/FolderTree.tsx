import {
  BookOpenIcon,
  ChevronRightIcon,
  DownloadIcon,
  FolderIcon,
  FolderOpenIcon,
  FolderPlusIcon,
  LibraryIcon,
  MoreHorizontalIcon,
  PencilIcon,
  Trash2Icon,
  UsersIcon,
} from 'lucide-react';
import { useState, type DragEvent, type ReactNode } from 'react';
import { MAX_FOLDER_DEPTH } from '@shared/constants';
import type { Folder } from '@shared/schemas/folders';
import { Button } from '@client/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { cn } from '@client/lib/utils';
import { carriesDocument, draggedDocument } from './drag';
import { CompileDialog } from '@client/features/compile';
import { ExportFolderDialog } from './ExportFolderDialog';
import { DeleteFolderDialog, FolderNameDialog } from './FolderDialogs';
import { ShareFolderDialog } from './ShareFolderDialog';
import { useFolderActions, useFolders } from './queries';
import { folderLines } from './tree';

type Editing =
  | { kind: 'create'; parent: Folder | null }
  | { kind: 'rename'; folder: Folder }
  | { kind: 'delete'; folder: Folder }
  | { kind: 'export'; folder: Folder }
  | { kind: 'share'; folder: Folder }
  | { kind: 'compile'; folder: Folder }
  | null;

/** A row of the tree that takes dropped documents. */
function DropRow({
  onDropDocument,
  className,
  children,
}: {
  onDropDocument(documentId: string): void;
  className?: string;
  children: ReactNode;
}) {
  const [over, setOver] = useState(false);
  const onDragOver = (event: DragEvent) => {
    if (!carriesDocument(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setOver(true);
  };
  return (
    <div
      className={cn(
        'group/row flex items-center gap-0.5 rounded-md pr-1',
        over && 'bg-primary/10 ring-2 ring-primary',
        className,
      )}
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        setOver(false);
        const documentId = draggedDocument(event);
        if (!documentId) return;
        event.preventDefault();
        onDropDocument(documentId);
      }}
      data-drop-target=""
    >
      {children}
    </div>
  );
}

/**
 * The dashboard's folder tree: "All documents", then the folders, each collapsible, with a menu to add a
 * sub-folder, rename or delete. Choosing one lists its documents; dropping a document card on one moves it there
 * (on "All documents": out of every folder).
 */
export function FolderTree({
  selected,
  onSelect,
}: {
  selected: string | null;
  onSelect(folderId: string | null): void;
}) {
  const folders = useFolders();
  const { place } = useFolderActions();
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [editing, setEditing] = useState<Editing>(null);
  const all = folders.data?.folders ?? [];
  const lines = folderLines(all, collapsed);
  const total = all.reduce((sum, folder) => sum + folder.documentCount, folders.data?.topLevelCount ?? 0);

  const toggle = (id: string) =>
    setCollapsed((set) => {
      const next = new Set(set);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  const moveInto = (documentId: string, folder: Folder | null) =>
    place.mutate(
      { documentId, folderId: folder?.id ?? null },
      {
        onSuccess: () =>
          toast({
            title: folder ? `Moved to ${folder.name}` : 'Moved out of folders',
            description: folder ? undefined : 'The document is at the top level.',
          }),
        onError: (error) =>
          toast({ title: 'Error moving document', description: errorMessage(error), variant: 'destructive' }),
      },
    );

  const rowButton = (active: boolean) =>
    cn(
      'flex min-w-0 flex-1 items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring',
      active && 'bg-accent font-medium text-accent-foreground',
    );

  return (
    <nav aria-label="Folders" className="text-sm" data-testid="folder-tree">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h2 className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Folders</h2>
        <Button variant="ghost" size="sm" onClick={() => setEditing({ kind: 'create', parent: null })}>
          <FolderPlusIcon aria-hidden="true" />
          New folder
        </Button>
      </div>
      <ul className="space-y-0.5">
        <li>
          <DropRow onDropDocument={(id) => moveInto(id, null)}>
            <span className="w-6 shrink-0" />
            <button
              type="button"
              className={rowButton(selected === null)}
              aria-current={selected === null ? 'page' : undefined}
              onClick={() => onSelect(null)}
            >
              <LibraryIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <span className="truncate">All documents</span>
              {folders.data ? <span className="ml-auto text-xs text-muted-foreground">{total}</span> : null}
            </button>
          </DropRow>
        </li>
        {lines.map(({ folder, depth, hasChildren }) => {
          const open = !collapsed.has(folder.id);
          const active = selected === folder.id;
          return (
            <li key={folder.id} style={{ paddingLeft: `${depth * 0.75}rem` }} data-testid="folder-row">
              <DropRow onDropDocument={(id) => moveInto(id, folder)}>
                {hasChildren ? (
                  <button
                    type="button"
                    className="grid size-6 shrink-0 place-items-center rounded text-muted-foreground hover:bg-accent"
                    aria-expanded={open}
                    aria-label={`${open ? 'Collapse' : 'Expand'} ${folder.name}`}
                    onClick={() => toggle(folder.id)}
                  >
                    <ChevronRightIcon className={cn('size-4 transition-transform', open && 'rotate-90')} />
                  </button>
                ) : (
                  <span className="w-6 shrink-0" />
                )}
                <button
                  type="button"
                  className={rowButton(active)}
                  aria-current={active ? 'page' : undefined}
                  onClick={() => onSelect(folder.id)}
                >
                  {active ? (
                    <FolderOpenIcon className="size-4 shrink-0 text-primary" aria-hidden="true" />
                  ) : (
                    <FolderIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  )}
                  <span className="truncate">{folder.name}</span>
                  <span className="ml-auto text-xs text-muted-foreground">{folder.documentCount}</span>
                </button>
                <DropdownMenu modal={false}>
                  <DropdownMenuTrigger asChild>
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      className="shrink-0 opacity-0 group-focus-within/row:opacity-100 group-hover/row:opacity-100 focus-visible:opacity-100 data-[state=open]:opacity-100 [@media(hover:none)]:opacity-100"
                      aria-label={`Actions for folder ${folder.name}`}
                    >
                      <MoreHorizontalIcon />
                    </Button>
                  </DropdownMenuTrigger>
                  <DropdownMenuContent align="end" className="w-44">
                    {depth + 1 < MAX_FOLDER_DEPTH ? (
                      <DropdownMenuItem onSelect={() => setEditing({ kind: 'create', parent: folder })}>
                        <FolderPlusIcon aria-hidden="true" />
                        New sub-folder
                      </DropdownMenuItem>
                    ) : null}
                    <DropdownMenuItem onSelect={() => setEditing({ kind: 'rename', folder })}>
                      <PencilIcon aria-hidden="true" />
                      Rename
                    </DropdownMenuItem>
                    <DropdownMenuItem onSelect={() => setEditing({ kind: 'share', folder })}>
                      <UsersIcon aria-hidden="true" />
                      Share…
                    </DropdownMenuItem>
                    <DropdownMenuItem onSelect={() => setEditing({ kind: 'export', folder })}>
                      <DownloadIcon aria-hidden="true" />
                      Export…
                    </DropdownMenuItem>
                    <DropdownMenuItem onSelect={() => setEditing({ kind: 'compile', folder })}>
                      <BookOpenIcon aria-hidden="true" />
                      Compile book…
                    </DropdownMenuItem>
                    <DropdownMenuItem
                      variant="destructive"
                      onSelect={() => setEditing({ kind: 'delete', folder })}
                    >
                      <Trash2Icon aria-hidden="true" />
                      Delete
                    </DropdownMenuItem>
                  </DropdownMenuContent>
                </DropdownMenu>
              </DropRow>
            </li>
          );
        })}
      </ul>
      {folders.data && all.length === 0 ? (
        <p className="mt-2 px-2 text-xs text-muted-foreground">
          Folders keep your documents in order. Drag a document onto a folder to move it there.
        </p>
      ) : null}

      <FolderNameDialog
        editing={editing?.kind === 'create' || editing?.kind === 'rename' ? editing : null}
        onDone={(folder) => {
          if (folder && editing?.kind === 'create') {
            if (editing.parent)
              setCollapsed((set) => new Set([...set].filter((id) => id !== editing.parent!.id)));
            onSelect(folder.id);
          }
          setEditing(null);
        }}
      />
      <ShareFolderDialog
        folder={editing?.kind === 'share' ? editing.folder : null}
        onDone={() => setEditing(null)}
      />
      <ExportFolderDialog
        folder={editing?.kind === 'export' ? editing.folder : null}
        onDone={() => setEditing(null)}
      />
      <CompileDialog
        target={
          editing?.kind === 'compile'
            ? { kind: 'folder', id: editing.folder.id, name: editing.folder.name }
            : null
        }
        onDone={() => setEditing(null)}
      />
      <DeleteFolderDialog
        folder={editing?.kind === 'delete' ? editing.folder : null}
        onDone={(deleted) => {
          if (deleted && editing?.kind === 'delete' && selected !== null) {
            const gone = new Set([editing.folder.id]);
            for (const { folder } of folderLines(all))
              if (folder.parentId && gone.has(folder.parentId)) gone.add(folder.id);
            if (gone.has(selected)) onSelect(null);
          }
          setEditing(null);
        }}
      />
    </nav>
  );
}
