import { ArrowLeftIcon, FileTextIcon, Loader2Icon, RotateCcwIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { DASHBOARD_PAGE_SIZE, TRASH_RETENTION_DAYS_DEFAULT } from '@shared/constants';
import type { TrashedDocument } from '@shared/schemas/trash';
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
import { TooltipProvider } from '@client/components/ui/tooltip';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import { useAuth } from '@client/features/auth';
import { useTrash, useTrashActions } from '@client/features/documents';
import { FolderTrashList, useFolderTrashActions, useTrashedFolders } from '@client/features/folders';
import { displayTitle } from '@client/lib/document-title';
import { DashboardHeader } from './DashboardHeader';
import { LoadFailed } from './LoadFailed';

const DAY_MS = 86_400_000;

/** 'Deleted today', 'Deleted yesterday', 'Deleted 3 days ago'. */
function deletedAgo(trashedAt: string, now = Date.now()): string {
  const days = Math.max(0, Math.floor((now - Date.parse(trashedAt)) / DAY_MS));
  if (days === 0) return 'Deleted today';
  if (days === 1) return 'Deleted yesterday';
  return `Deleted ${days} days ago`;
}

/** 'Deleted forever in 27 days', 'Deleted forever tomorrow', 'Deleted forever today'. */
function deletedForeverIn(purgeAt: string, now = Date.now()): string {
  const days = Math.max(0, Math.ceil((Date.parse(purgeAt) - now) / DAY_MS));
  if (days === 0) return 'Deleted forever today';
  if (days === 1) return 'Deleted forever tomorrow';
  return `Deleted forever in ${days} days`;
}

type Pending = { kind: 'one'; document: TrashedDocument } | { kind: 'all'; count: number } | null;

/** `/trash`: the signed-in user's deleted documents, to restore or delete for good. */
export function TrashPage() {
  const { user, loading } = useAuth();
  const [, navigate] = useLocation();
  const [shown, setShown] = useState(DASHBOARD_PAGE_SIZE);
  const trash = useTrash(shown);
  const actions = useTrashActions();
  const [pending, setPending] = useState<Pending>(null);
  const trashedFolders = useTrashedFolders().data?.folders ?? [];
  const folderActions = useFolderTrashActions();

  useEffect(() => {
    if (!loading && !user) navigate('/', { replace: true });
  }, [loading, user, navigate]);

  const days = trash.data?.retentionDays ?? TRASH_RETENTION_DAYS_DEFAULT;
  const list = trash.data?.documents ?? [];
  const total = trash.data?.total ?? 0;
  // Emptying the trash also deletes the folders there, with the documents that went with them.
  const everything = total + trashedFolders.reduce((sum, folder) => sum + folder.documentCount, 0);
  const busy = actions.deleteForever.isPending || actions.empty.isPending || folderActions.empty.isPending;

  const onRestore = (document: TrashedDocument) => {
    actions.restore.mutate(document.id, {
      onSuccess: () =>
        toast({
          title: 'Document restored',
          description: `'${displayTitle(document.title)}' is back in your documents.`,
        }),
      onError: (error) => toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' }),
    });
  };

  const onConfirm = () => {
    if (!pending) return;
    const done = {
      onSuccess: () => {
        setPending(null);
        toast({ title: pending.kind === 'one' ? 'Deleted forever' : 'Trash emptied' });
      },
      onError: (error: unknown) => {
        setPending(null);
        toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' });
      },
    };
    if (pending.kind === 'one') actions.deleteForever.mutate(pending.document.id, done);
    else
      void Promise.all([folderActions.empty.mutateAsync(), actions.empty.mutateAsync()]).then(
        () => done.onSuccess(),
        done.onError,
      );
  };

  return (
    <TooltipProvider>
      <div className="min-h-dvh bg-background">
        <DashboardHeader />
        <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-10">
          <Button asChild variant="ghost" size="sm" className="-ml-2 mb-4">
            <Link href="/">
              <ArrowLeftIcon aria-hidden="true" />
              Your Documents
            </Link>
          </Button>
          <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
            <div>
              <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Trash</h1>
              <p className="mt-1 text-muted-foreground">
                Deleted documents are kept for {days} days, then deleted for good.
              </p>
            </div>
            {total > 0 || trashedFolders.length > 0 ? (
              <Button
                variant="outline"
                className="self-start sm:self-auto"
                onClick={() => setPending({ kind: 'all', count: everything })}
              >
                <Trash2Icon aria-hidden="true" />
                Empty trash
              </Button>
            ) : null}
          </div>

          {trash.isLoading || loading ? (
            <ul className="flex flex-col gap-3" aria-busy="true" aria-label="Loading the trash">
              {[0, 1, 2].map((i) => (
                <li key={i} className="rounded-xl border bg-card p-4">
                  <Skeleton className="h-4 w-1/2" />
                  <Skeleton className="mt-3 h-3 w-1/3" />
                </li>
              ))}
            </ul>
          ) : trash.isError ? (
            <LoadFailed
              title="We couldn't load the trash"
              error={trash.error}
              onRetry={() => void trash.refetch()}
            />
          ) : (
            <FolderTrashList
              describe={(trashedAt, purgeAt) => `${deletedAgo(trashedAt)} · ${deletedForeverIn(purgeAt)}`}
            />
          )}
          {trash.isLoading || loading || trash.isError ? null : list.length === 0 &&
            trashedFolders.length > 0 ? null : list.length === 0 ? (
            <div className="flex flex-col items-center rounded-xl border border-dashed bg-card px-6 py-16 text-center">
              <span className="mb-4 grid size-14 place-items-center rounded-2xl bg-muted text-muted-foreground">
                <Trash2Icon className="size-7" aria-hidden="true" />
              </span>
              <h2 className="text-lg font-semibold">The trash is empty</h2>
              <p className="mt-1 text-sm text-muted-foreground">
                Documents you delete stay here for {days} days, so you can restore them.
              </p>
            </div>
          ) : (
            <>
              <ul className="flex flex-col gap-3" aria-label="Deleted documents">
                {list.map((document) => {
                  const title = displayTitle(document.title);
                  const restoring = actions.restore.isPending && actions.restore.variables === document.id;
                  return (
                    <li
                      key={document.id}
                      className="flex flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground sm:flex-row sm:items-center"
                      data-testid="trashed-document"
                    >
                      <span className="hidden size-10 shrink-0 place-items-center rounded-lg bg-muted text-muted-foreground sm:grid">
                        <FileTextIcon className="size-5" aria-hidden="true" />
                      </span>
                      <div className="min-w-0 flex-1">
                        <h2 className="truncate font-semibold tracking-tight">{title}</h2>
                        <p className="mt-0.5 text-sm text-muted-foreground">
                          {deletedAgo(document.trashedAt)}
                          <span aria-hidden="true"> · </span>
                          <span className="sr-only">, </span>
                          {deletedForeverIn(document.purgeAt)}
                        </p>
                      </div>
                      <div className="flex gap-2">
                        <Button
                          variant="outline"
                          size="sm"
                          onClick={() => onRestore(document)}
                          disabled={restoring}
                          aria-label={`Restore ${title}`}
                        >
                          {restoring ? (
                            <Loader2Icon className="animate-spin" aria-hidden="true" />
                          ) : (
                            <RotateCcwIcon aria-hidden="true" />
                          )}
                          Restore
                        </Button>
                        <Button
                          variant="ghost"
                          size="sm"
                          className="text-destructive hover:text-destructive"
                          onClick={() => setPending({ kind: 'one', document })}
                          aria-label={`Delete forever: ${title}`}
                        >
                          <Trash2Icon aria-hidden="true" />
                          Delete forever
                        </Button>
                      </div>
                    </li>
                  );
                })}
              </ul>
              {list.length < total ? (
                <div className="mt-6 flex justify-center">
                  <Button
                    variant="outline"
                    onClick={() => setShown((n) => n + DASHBOARD_PAGE_SIZE)}
                    disabled={trash.isFetching}
                  >
                    {trash.isFetching ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
                    Show more
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </main>

        <AlertDialog
          open={pending !== null}
          onOpenChange={(open) => {
            if (!open && !busy) setPending(null);
          }}
        >
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>
                {pending?.kind === 'all' ? 'Empty trash?' : 'Delete forever?'}
              </AlertDialogTitle>
              <AlertDialogDescription>
                {pending?.kind === 'all'
                  ? `${pending.count === 1 ? 'The document' : `All ${pending.count} documents`} in the trash will be deleted. This cannot be undone.`
                  : `'${displayTitle(pending?.document.title)}' and its version history will be deleted. This cannot be undone.`}
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
              {/* A plain button, not AlertDialogAction: the dialog stays open until the deletion finishes. */}
              <Button variant="destructive" onClick={onConfirm} disabled={busy}>
                {busy ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
                {pending?.kind === 'all' ? 'Empty trash' : 'Delete forever'}
              </Button>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </TooltipProvider>
  );
}
