import { format } from 'date-fns';
import { FileTextIcon, MoreHorizontalIcon, PinIcon, PinOffIcon, Trash2Icon } from 'lucide-react';
import type { HTMLAttributes, ReactNode } from 'react';
import { Link } from 'wouter';
import type { DocumentSummary } from '@shared/schemas/documents';
import { Button } from '@client/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@client/components/ui/dropdown-menu';
import { displayTitle } from '@client/lib/document-title';

/**
 * One document on the dashboard. The whole card is a link to the editor (a stretched link, so the menu button
 * can sit on top of it without nesting interactive elements); the menu shows on hover and keyboard focus.
 */
export function DocumentCard({
  document,
  preview,
  pinned = false,
  onTogglePin,
  onDelete,
  menuItems,
  itemProps,
}: {
  document: Pick<DocumentSummary, 'id' | 'title' | 'updated_at'>;
  /** The opening text of the document, shown on one line under the title. */
  preview?: string | undefined;
  pinned?: boolean | undefined;
  /** Without it the menu offers no pinning. */
  onTogglePin?: (() => void) | undefined;
  onDelete(): void;
  /** More entries of the card's menu, above Delete (Move to…, Move up, Move down). */
  menuItems?: ReactNode;
  /** Dragging and dropping (moving the card to a folder, reordering inside one). */
  itemProps?: HTMLAttributes<HTMLLIElement>;
}) {
  const updated = new Date(document.updated_at);
  const valid = !Number.isNaN(updated.getTime());
  return (
    <li
      className="group relative flex min-h-36 flex-col rounded-xl border bg-card p-5 text-card-foreground shadow-xs transition-[box-shadow,border-color,transform] focus-within:border-primary/50 hover:-translate-y-0.5 hover:border-primary/40 hover:shadow-md"
      data-testid="document-card"
      {...itemProps}
    >
      <span className="mb-4 grid size-10 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
        {pinned ? (
          <PinIcon className="size-5" aria-label="Pinned" role="img" />
        ) : (
          <FileTextIcon className="size-5" aria-hidden="true" />
        )}
      </span>
      <h2 className="line-clamp-2 text-base leading-snug font-semibold tracking-tight break-words">
        <Link
          href={`/editor/${document.id}`}
          className="rounded-sm outline-none after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:after:ring-2 focus-visible:after:ring-ring"
        >
          {displayTitle(document.title)}
        </Link>
      </h2>
      {preview ? (
        <p className="mt-1 truncate text-sm text-muted-foreground" data-testid="document-preview">
          {preview}
        </p>
      ) : null}
      {/* After the link in the DOM, so Tab moves from a card's link to its menu. */}
      <div className="absolute top-3 right-3 z-10">
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            <Button
              variant="ghost"
              size="icon-sm"
              className="opacity-0 group-focus-within:opacity-100 group-hover:opacity-100 focus-visible:opacity-100 data-[state=open]:opacity-100 [@media(hover:none)]:opacity-100"
              aria-label={`Actions for ${displayTitle(document.title)}`}
            >
              <MoreHorizontalIcon />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="w-40">
            {onTogglePin ? (
              <DropdownMenuItem onSelect={onTogglePin}>
                {pinned ? <PinOffIcon aria-hidden="true" /> : <PinIcon aria-hidden="true" />}
                {pinned ? 'Unpin' : 'Pin'}
              </DropdownMenuItem>
            ) : null}
            {menuItems}
            <DropdownMenuItem variant="destructive" onSelect={onDelete}>
              <Trash2Icon aria-hidden="true" />
              Delete
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      <p className="mt-auto pt-3 text-xs text-muted-foreground">
        {valid ? (
          <>
            Last updated{' '}
            <time dateTime={document.updated_at}>
              {format(updated, 'MMM d, yyyy')} at {format(updated, 'HH:mm')}
            </time>
          </>
        ) : null}
      </p>
    </li>
  );
}
