import { FilePlus2Icon, Loader2Icon, PlusIcon } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'wouter';
import {
  DASHBOARD_PAGE_SIZE,
  DASHBOARD_SKELETON_CARDS,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MAX_LIMIT,
  TRASH_RETENTION_DAYS_DEFAULT,
} from '@shared/constants';
import type { LibrarySort } from '@shared/schemas/search';
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
import { useCreateDocument, useDeleteDocument, useTrash, useTrashActions } from '@client/features/documents';
import { displayTitle } from '@client/lib/document-title';

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
  const [sort, setSort] = useState<LibrarySort>('updated');
  const [shown, setShown] = useState(DASHBOARD_PAGE_SIZE);
  const [query, setQuery] = useState('');
  const documents = useLibrary(sort, shown);
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

  const onCreate = () => {
    if (create.isPending) return;
    create.mutate(undefined, {
      onSuccess: (document) => {
        toast({ title: 'Document created', description: 'Your new document has been created successfully.' });
        navigate(`/editor/${document.id}`);
      },
      onError: (error) => {
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
      },
    });
  };

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
  const search = useSearch(searching ? searchedFor : '', SEARCH_MAX_LIMIT);
  const onImport = (files: File[]) => importFiles.mutate(files);

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
              <div className="flex gap-2 self-start sm:self-auto">
                <ImportButton onFiles={onImport} pending={importFiles.isPending} />
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

            {total ? (
              <LibraryToolbar
                query={query}
                onQuery={setQuery}
                sort={sort}
                onSort={setSort}
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
                <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Documents">
                  {list.map((document) => (
                    <DocumentCard
                      key={document.id}
                      document={document}
                      preview={document.preview}
                      onDelete={() => setPendingDelete(document)}
                    />
                  ))}
                </ul>
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
