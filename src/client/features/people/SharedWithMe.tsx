import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { displayTitle } from '@client/lib/document-title';
import { errorMessage } from '@client/lib/api';
import { cn } from '@client/lib/utils';
import type { SharedWithMeDocument } from '@shared/schemas/people';
import { format } from 'date-fns';
import { ChevronRightIcon, FolderIcon, UsersIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { useSharedWithMe } from './api';
import { memberDocumentPath } from '@client/lib/member-document-path';
import { ROLE_LABELS } from './constants';

function SharedCard({ document }: { document: SharedWithMeDocument }) {
  const updated = new Date(document.updatedAt);
  const valid = !Number.isNaN(updated.getTime());
  return (
    <li
      className="group relative flex flex-col gap-1 rounded-xl border bg-card p-4 text-card-foreground shadow-xs transition-[box-shadow,border-color] focus-within:border-primary/50 hover:border-primary/40 hover:shadow-md"
      data-testid="shared-card"
    >
      <div className="flex items-start justify-between gap-2">
        <h3 className="line-clamp-2 text-sm leading-snug font-semibold break-words">
          {/* A stretched link: the whole card opens the document. */}
          <Link
            href={memberDocumentPath(document.id)}
            className="rounded-sm outline-none after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:after:ring-2 focus-visible:after:ring-ring"
          >
            {displayTitle(document.title)}
          </Link>
        </h3>
        <Badge variant="secondary" className="shrink-0">
          {ROLE_LABELS[document.role]}
        </Badge>
      </div>
      <p className="truncate text-xs text-muted-foreground">Shared by {document.ownerName}</p>
      {valid ? (
        <p className="text-xs text-muted-foreground">
          Last updated{' '}
          <time dateTime={document.updatedAt}>
            {format(updated, 'MMM d, yyyy')} at {format(updated, 'HH:mm')}
          </time>
        </p>
      ) : null}
    </li>
  );
}

interface SharedFolder {
  id: string;
  name: string;
  ownerName: string;
  documents: SharedWithMeDocument[];
}

/** The documents reached through a shared folder, by folder (in the order of their newest document). */
function byFolder(documents: readonly SharedWithMeDocument[]) {
  const folders = new Map<string, SharedFolder>();
  const loose: SharedWithMeDocument[] = [];
  for (const document of documents) {
    if (!document.folder) {
      loose.push(document);
      continue;
    }
    let folder = folders.get(document.folder.id);
    if (!folder) {
      folder = { ...document.folder, ownerName: document.ownerName, documents: [] };
      folders.set(folder.id, folder);
    }
    folder.documents.push(document);
  }
  return { folders: [...folders.values()], loose };
}

const GRID = 'grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3';

/** A folder someone shared: opens to show its documents (those of its sub-folders too). */
function SharedFolderItem({ folder }: { folder: SharedFolder }) {
  const [open, setOpen] = useState(false);
  const list = useId();
  const count = folder.documents.length;
  return (
    <li data-testid="shared-folder">
      <button
        type="button"
        className="flex w-full items-center gap-2 rounded-xl border bg-card p-3 text-left text-card-foreground shadow-xs transition-[box-shadow,border-color] hover:border-primary/40 hover:shadow-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        aria-expanded={open}
        aria-controls={list}
        onClick={() => setOpen((value) => !value)}
      >
        <ChevronRightIcon
          className={cn(
            'size-4 shrink-0 text-muted-foreground transition-transform motion-reduce:transition-none',
            open && 'rotate-90',
          )}
          aria-hidden="true"
        />
        <FolderIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-semibold">{folder.name}</span>
          <span className="block truncate text-xs text-muted-foreground">
            Shared by {folder.ownerName} · {count} {count === 1 ? 'document' : 'documents'}
          </span>
        </span>
      </button>
      {open ? (
        <ul id={list} className={cn(GRID, 'mt-3 sm:pl-6')} aria-label={`Documents in ${folder.name}`}>
          {folder.documents.map((document) => (
            <SharedCard key={document.id} document={document} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/**
 * The dashboard's "Shared with me": the folders and documents other people invited this person to, newest change
 * first, with whose they are and what the person may do there. A shared folder opens to show its documents.
 */
export function SharedWithMe() {
  const shared = useSharedWithMe();
  const heading = useId();
  const groups = shared.data ? byFolder(shared.data) : undefined;
  return (
    <section className="mt-10" aria-labelledby={heading} data-testid="shared-with-me">
      <h2 id={heading} className="mb-3 flex items-center gap-2 text-sm font-medium text-muted-foreground">
        <UsersIcon className="size-4" aria-hidden="true" />
        Shared with me
      </h2>
      {shared.isError ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm text-muted-foreground">
          <span>Shared documents could not be loaded. {errorMessage(shared.error)}</span>
          <Button size="sm" variant="outline" onClick={() => void shared.refetch()}>
            Try again
          </Button>
        </div>
      ) : !groups ? (
        <p className="text-sm text-muted-foreground">Loading…</p>
      ) : groups.folders.length === 0 && groups.loose.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          Nothing yet. When someone invites you to a document, it appears here.
        </p>
      ) : (
        <div className="space-y-3">
          {groups.folders.length > 0 ? (
            <ul className="space-y-3" aria-label="Folders shared with me">
              {groups.folders.map((folder) => (
                <SharedFolderItem key={folder.id} folder={folder} />
              ))}
            </ul>
          ) : null}
          {groups.loose.length > 0 ? (
            <ul className={GRID} aria-label="Shared with me">
              {groups.loose.map((document) => (
                <SharedCard key={document.id} document={document} />
              ))}
            </ul>
          ) : null}
        </div>
      )}
    </section>
  );
}
