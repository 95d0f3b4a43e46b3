import {
  ArrowDownIcon,
  ArrowUpIcon,
  FilePlus2Icon,
  FolderInputIcon,
  FolderOpenIcon,
  LayoutTemplateIcon,
  Loader2Icon,
  PlusIcon,
} from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useSearch as useAddress } from 'wouter';
import {
  DASHBOARD_PAGE_SIZE,
  DASHBOARD_SKELETON_CARDS,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MAX_LIMIT,
  TRASH_RETENTION_DAYS_DEFAULT,
} from '@shared/constants';
import type { DocumentResponse } from '@shared/schemas/documents';
import { LIBRARY_SORTS, type LibraryPage, type LibrarySort } from '@shared/schemas/search';
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
import { DropdownMenuItem } from '@client/components/ui/dropdown-menu';
import { Skeleton } from '@client/components/ui/skeleton';
import { ToastAction } from '@client/components/ui/toast';
import { TooltipProvider } from '@client/components/ui/tooltip';
import { toast } from '@client/components/ui/use-toast';
import { ApiError, errorMessage } from '@client/lib/api';
import { FileDropZone, ImportButton, useImportFiles } from '@client/features/imports';
import { QuickSwitcher, useDebouncedValue, useLibrary, useSearch } from '@client/features/search';
import { LibraryToolbar } from './LibraryToolbar';
import { SearchResults } from './SearchResults';
import { ShortcutSheetHost } from '@client/features/shortcuts';
import { loadAccountSettingsDialog, type SettingsTab } from '@client/features/settings';
import { DashboardHeader } from './DashboardHeader';
import { LoadFailed } from './LoadFailed';
import { DocumentCard } from './DocumentCard';
import {
  useCreateDocument,
  useDeleteDocument,
  useSetPinned,
  useTrash,
  useTrashActions,
} from '@client/features/documents';
import { NewFromTemplateDialog } from '@client/features/templates';
import { SharedWithMe } from '@client/features/people';
import { displayTitle } from '@client/lib/document-title';
import {
  documentDragSource,
  documentDropTarget,
  folderHref,
  folderOfSearch,
  FolderTree,
  MoveToDialog,
  useFolderActions,
  useFolders,
} from '@client/features/folders';

type LibraryDocument = LibraryPage['documents'][number];
const SORTS_OUTSIDE_FOLDERS = LIBRARY_SORTS.filter((sort) => sort !== 'manual');

const AccountSettingsDialog = lazy(async () => ({
  default: await loadAccountSettingsDialog(),
}));

function SkeletonGrid() {
  return (
    <ul
      className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
      aria-busy="true"
      aria-label="Loading documents"
    >
      {Array.from({ length: DASHBOARD_SKELETON_CARDS }, (_, i) => (
        <li
          key={i}
          className="flex min-h-36 flex-col rounded-xl border bg-card p-5"
          data-testid="document-skeleton"
        >
          <Skeleton className="mb-4 size-10 rounded-lg" />
          <Skeleton className="h-4 w-3/4" />
          <Skeleton className="mt-auto h-3 w-1/2" />
        </li>
      ))}
    </ul>
  );
}

/** The dashboard: the signed-in user's documents. */
export function DashboardPage() {
  const [, navigate] = useLocation();
  // The folder shown is in the address (`/?folder=…`), so the editor's breadcrumbs can link to it.
  const address = useAddress();
  const folderId = folderOfSearch(address);
  // `/?new=template` (the quick switcher's "New from template…") opens the templates dialog.
  const fromTemplateAsked = new URLSearchParams(address).get('new') === 'template';
  const [fromTemplateOpen, setFromTemplateOpen] = useState(false);
  const showFromTemplate = fromTemplateOpen || fromTemplateAsked;
  const setShowFromTemplate = (open: boolean) => {
    setFromTemplateOpen(open);
    if (!open && fromTemplateAsked) navigate('/', { replace: true });
  };
  const setPinned = useSetPinned();
  const [chosenSort, setSort] = useState<LibrarySort | null>(null);
  // Inside a folder its own order comes first; that order means nothing across folders.
  const sort: LibrarySort =
    chosenSort === 'manual' && !folderId ? 'updated' : (chosenSort ?? (folderId ? 'manual' : 'updated'));
  const [shown, setShown] = useState(DASHBOARD_PAGE_SIZE);
  const [query, setQuery] = useState('');
  const documents = useLibrary(sort, shown, true, folderId);
  const folder = useFolders().data?.folders.find((candidate) => candidate.id === folderId);
  const { place } = useFolderActions();
  const [moving, setMoving] = useState<LibraryDocument | null>(null);
  const importFiles = useImportFiles();
  const create = useCreateDocument();
  const remove = useDeleteDocument();
  const { restore } = useTrashActions();
  const [pendingDelete, setPendingDelete] = useState<{ id: string; title: string } | null>(null);
  // The server's retention, asked only once someone is about to delete something.
  const retentionDays =
    useTrash(1, pendingDelete !== null).data?.retentionDays ?? TRASH_RETENTION_DAYS_DEFAULT;
  const [settings, setSettings] = useState<{ open: boolean; tab: SettingsTab; mounted: boolean }>({
    open: false,
    tab: 'profile',
    mounted: false,
  });

  const openSettings = (tab: SettingsTab = 'profile') => setSettings({ open: true, tab, mounted: true });

  const onCreated = (document: DocumentResponse) => {
    void (async () => {
      // Made while a folder is shown, it goes there, before the editor asks where it sits.
      if (folderId) {
        await place.mutateAsync({ documentId: document.id, folderId }).catch((error: unknown) =>
          toast({
            title: 'Error moving document',
            description: errorMessage(error),
            variant: 'destructive',
          }),
        );
      }
      toast({ title: 'Document created', description: 'Your new document has been created successfully.' });
      navigate(`/editor/${document.id}`);
    })();
  };
  const onCreateError = (error: unknown) => {
    console.error('Error creating document', error);
    const planLimit = error instanceof ApiError && error.status === 403 && error.code === 'plan_limit';
    toast({
      title: 'Error creating document',
      description: errorMessage(error),
      variant: 'destructive',
      action: planLimit ? (
        <ToastAction altText="Upgrade your plan" onClick={() => openSettings('subscription')}>
          Upgrade
        </ToastAction>
      ) : undefined,
    });
  };
  const onCreate = () => {
    if (create.isPending) return;
    create.mutate(undefined, { onSuccess: onCreated, onError: onCreateError });
  };
  const togglePin = (document: LibraryDocument) =>
    setPinned.mutate(
      { id: document.id, pinned: !document.pinned },
      {
        onError: (error) =>
          toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' }),
      },
    );

  const onConfirmDelete = () => {
    const document = pendingDelete;
    if (!document) return;
    const title = displayTitle(document.title);
    const undo = () =>
      restore.mutate(document.id, {
        onSuccess: () =>
          toast({ title: 'Document restored', description: `'${title}' is back in your documents.` }),
        onError: (error) =>
          toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' }),
      });
    remove.mutate(document.id, {
      onSuccess: () => {
        setPendingDelete(null);
        toast({
          title: 'Moved to trash',
          description: `'${title}' is in the trash.`,
          action: (
            <ToastAction altText={`Undo: restore ${title}`} onClick={undo}>
              Undo
            </ToastAction>
          ),
        });
      },
      onError: (error) => {
        console.error('Error moving to trash', error);
        setPendingDelete(null);
        toast({ title: 'Error moving to trash', description: errorMessage(error), variant: 'destructive' });
      },
    });
  };

  const list = documents.data?.documents ?? [];
  const total = documents.data?.total;
  const searching = query.trim().length > 0 && !!total;
  const searchedFor = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const search = useSearch(searching ? searchedFor : '', SEARCH_MAX_LIMIT, folderId);
  const inOrder = folderId !== null && sort === 'manual';
  const reorder = (documentId: string, position: number) =>
    place.mutate(
      { documentId, folderId, position },
      {
        onError: (error) =>
          toast({ title: 'Error moving document', description: errorMessage(error), variant: 'destructive' }),
      },
    );
  const selectFolder = (id: string | null) => {
    setShown(DASHBOARD_PAGE_SIZE);
    setQuery('');
    navigate(folderHref(id));
  };
  const onImport = (files: File[]) => importFiles.mutate(files);
  // Pinned documents come first from the server; in a folder's own order they stay where they were put.
  const pinned = inOrder ? [] : list.filter((document) => document.pinned);
  const others = inOrder ? list : list.filter((document) => !document.pinned);
  const card = (document: LibraryDocument, index: number, group: LibraryDocument[]) => (
    <DocumentCard
      key={document.id}
      document={document}
      preview={document.preview}
      pinned={document.pinned}
      onTogglePin={() => togglePin(document)}
      onDelete={() => setPendingDelete(document)}
      itemProps={{
        draggable: true,
        ...documentDragSource(document.id),
        // Inside a folder in its own order, dropping a card on another puts it there.
        ...(inOrder
          ? documentDropTarget((dropped) => {
              if (dropped !== document.id) reorder(dropped, index);
            })
          : {}),
      }}
      menuItems={
        <>
          <DropdownMenuItem onSelect={() => setMoving(document)}>
            <FolderInputIcon aria-hidden="true" />
            Move to…
          </DropdownMenuItem>
          {inOrder && index > 0 ? (
            <DropdownMenuItem onSelect={() => reorder(document.id, index - 1)}>
              <ArrowUpIcon aria-hidden="true" />
              Move up
            </DropdownMenuItem>
          ) : null}
          {inOrder && index < group.length - 1 ? (
            <DropdownMenuItem onSelect={() => reorder(document.id, index + 1)}>
              <ArrowDownIcon aria-hidden="true" />
              Move down
            </DropdownMenuItem>
          ) : null}
        </>
      }
    />
  );

  return (
    <TooltipProvider>
      <FileDropZone onFiles={onImport}>
        <QuickSwitcher />
        <ShortcutSheetHost />
        <div className="min-h-dvh bg-background">
          <DashboardHeader onOpenSettings={() => openSettings('profile')} />
          <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
            <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
              <div>
                <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Your Documents</h1>
                <p className="mt-1 text-muted-foreground">Create and manage your writing projects</p>
              </div>
              <div className="flex flex-wrap gap-2 self-start sm:self-auto">
                <ImportButton onFiles={onImport} pending={importFiles.isPending} />
                <Button variant="outline" onClick={() => setShowFromTemplate(true)}>
                  <LayoutTemplateIcon aria-hidden="true" />
                  New from template
                </Button>
                <Button onClick={onCreate} disabled={create.isPending}>
                  {create.isPending ? (
                    <Loader2Icon className="animate-spin" aria-hidden="true" />
                  ) : (
                    <PlusIcon aria-hidden="true" />
                  )}
                  New Document
                </Button>
              </div>
            </div>

            <div className="flex flex-col gap-6 lg:flex-row lg:gap-8">
              <aside className="lg:w-60 lg:shrink-0">
                <FolderTree selected={folderId} onSelect={selectFolder} />
              </aside>
              <div className="min-w-0 flex-1">
                {folder ? (
                  <h2
                    className="mb-4 flex items-center gap-2 text-lg font-semibold"
                    data-testid="folder-heading"
                  >
                    <FolderOpenIcon className="size-5 text-primary" aria-hidden="true" />
                    {folder.name}
                  </h2>
                ) : null}
                {total ? (
                  <LibraryToolbar
                    query={query}
                    onQuery={setQuery}
                    sort={sort}
                    sorts={folderId ? LIBRARY_SORTS : SORTS_OUTSIDE_FOLDERS}
                    onSort={setSort}
                    scope={folder?.name}
                    total={total}
                    matches={search.data?.length}
                  />
                ) : null}

                {searching ? (
                  <SearchResults query={searchedFor} search={search} />
                ) : documents.isLoading ? (
                  <SkeletonGrid />
                ) : documents.isError ? (
                  <LoadFailed
                    title="We couldn't load your documents"
                    error={documents.error}
                    onRetry={() => void documents.refetch()}
                  />
                ) : list.length === 0 && folderId ? (
                  <div className="flex flex-col items-center rounded-xl border border-dashed bg-card px-6 py-16 text-center">
                    <span className="mb-4 grid size-14 place-items-center rounded-2xl bg-primary/10 text-primary">
                      <FolderOpenIcon className="size-7" aria-hidden="true" />
                    </span>
                    <h2 className="text-lg font-semibold">This folder is empty</h2>
                    <p className="mt-1 text-sm text-muted-foreground">
                      Drag a document onto the folder, or choose Move to… in a document&apos;s menu.
                    </p>
                  </div>
                ) : list.length === 0 ? (
                  <div className="flex flex-col items-center rounded-xl border border-dashed bg-card px-6 py-16 text-center">
                    <span className="mb-4 grid size-14 place-items-center rounded-2xl bg-primary/10 text-primary">
                      <FilePlus2Icon className="size-7" aria-hidden="true" />
                    </span>
                    <h2 className="text-lg font-semibold">No documents yet</h2>
                    <p className="mt-1 text-sm text-muted-foreground">
                      Create your first document to get started
                    </p>
                    <Button className="mt-6" onClick={onCreate} disabled={create.isPending}>
                      {create.isPending ? (
                        <Loader2Icon className="animate-spin" aria-hidden="true" />
                      ) : (
                        <PlusIcon aria-hidden="true" />
                      )}
                      Create Document
                    </Button>
                  </div>
                ) : (
                  <>
                    {pinned.length > 0 ? (
                      <>
                        <p className="mb-3 text-sm font-medium text-muted-foreground" aria-hidden="true">
                          Pinned
                        </p>
                        <ul
                          className="mb-8 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
                          aria-label="Pinned documents"
                        >
                          {pinned.map((document, index) => card(document, index, pinned))}
                        </ul>
                        {others.length > 0 ? (
                          <p className="mb-3 text-sm font-medium text-muted-foreground" aria-hidden="true">
                            Documents
                          </p>
                        ) : null}
                      </>
                    ) : null}
                    {others.length > 0 ? (
                      <ul
                        className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
                        aria-label="Documents"
                      >
                        {others.map((document, index) => card(document, index, others))}
                      </ul>
                    ) : null}
                    {total !== undefined && list.length < total ? (
                      <div className="mt-6 flex justify-center">
                        <Button
                          variant="outline"
                          onClick={() => setShown((n) => n + DASHBOARD_PAGE_SIZE)}
                          disabled={documents.isFetching}
                        >
                          {documents.isFetching ? (
                            <Loader2Icon className="animate-spin" aria-hidden="true" />
                          ) : null}
                          Show more
                        </Button>
                      </div>
                    ) : null}
                  </>
                )}
                {/* Other people's documents belong to the whole library, not to a folder or a search. */}
                {!folderId && !searching ? <SharedWithMe /> : null}
              </div>
            </div>
          </main>

          <AlertDialog
            open={pendingDelete !== null}
            onOpenChange={(open) => {
              if (!open && !remove.isPending) setPendingDelete(null);
            }}
          >
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Move to trash?</AlertDialogTitle>
                <AlertDialogDescription>
                  &apos;{displayTitle(pendingDelete?.title)}&apos; will be moved to the trash. You can restore
                  it from there for {retentionDays} days.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
                {/* A plain button, not AlertDialogAction: the dialog stays open until the move finishes. */}
                <Button variant="destructive" onClick={onConfirmDelete} disabled={remove.isPending}>
                  {remove.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
                  Move to trash
                </Button>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>

          <MoveToDialog document={moving} onClose={() => setMoving(null)} />

          <NewFromTemplateDialog
            open={showFromTemplate}
            onOpenChange={setShowFromTemplate}
            onCreated={onCreated}
            onCreateError={onCreateError}
          />

          {settings.mounted ? (
            <Suspense fallback={null}>
              <AccountSettingsDialog
                open={settings.open}
                defaultTab={settings.tab}
                onOpenChange={(open) => setSettings((s) => ({ ...s, open }))}
              />
            </Suspense>
          ) : null}
        </div>
      </FileDropZone>
    </TooltipProvider>
  );
}
