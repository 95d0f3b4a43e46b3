import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { displayTitle } from '@client/lib/document-title';
import { errorMessage } from '@client/lib/api';
import type { SharedWithMeDocument } from '@shared/schemas/people';
import { format } from 'date-fns';
import { UsersIcon } from 'lucide-react';
import { useId } from 'react';
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

/**
 * The dashboard's "Shared with me": the documents other people invited this person to, newest change first, with
 * whose they are and what the person may do there.
 */
export function SharedWithMe() {
  const shared = useSharedWithMe();
  const heading = useId();
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
      ) : shared.isPending ? (
        <p className="text-sm text-muted-foreground">Loading…</p>
      ) : shared.data.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          Nothing yet. When someone invites you to a document, it appears here.
        </p>
      ) : (
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Shared with me">
          {shared.data.map((document) => (
            <SharedCard key={document.id} document={document} />
          ))}
        </ul>
      )}
    </section>
  );
}
