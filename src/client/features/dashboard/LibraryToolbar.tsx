import { SearchIcon, XIcon } from 'lucide-react';
import { LIBRARY_SORTS, type LibrarySort } from '@shared/schemas/search';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';

const SORT_LABELS: Record<LibrarySort, string> = {
  updated: 'Last updated',
  title: 'Title',
  created: 'Date created',
  manual: 'Folder order',
};

/**
 * Above the dashboard grid: the search box, the sort order and how many documents there are; while searching,
 * how many documents the results list shows instead.
 */
export function LibraryToolbar({
  query,
  onQuery,
  sort,
  sorts = LIBRARY_SORTS,
  onSort,
  total,
  matches,
  scope,
}: {
  query: string;
  onQuery(value: string): void;
  sort: LibrarySort;
  /** The orders offered (the folder's own order only inside a folder). */
  sorts?: readonly LibrarySort[];
  onSort(value: LibrarySort): void;
  total: number | undefined;
  /** How many results the search shows; undefined while none have come yet. */
  matches: number | undefined;
  /** The folder the list and search are limited to, by name. */
  scope?: string | undefined;
}) {
  const searching = query.trim().length > 0;
  const count = searching ? matches : total;
  return (
    <div className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-center">
      <div className="relative flex-1">
        <SearchIcon
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden="true"
        />
        <Input
          type="search"
          value={query}
          onChange={(event) => onQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onQuery('');
          }}
          placeholder={scope ? `Search in ${scope}…` : 'Search titles and text…'}
          aria-label="Search documents"
          className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
        />
        {searching ? (
          <Button
            variant="ghost"
            size="icon-sm"
            className="absolute top-1/2 right-1 -translate-y-1/2"
            aria-label="Clear search"
            onClick={() => onQuery('')}
          >
            <XIcon />
          </Button>
        ) : null}
      </div>
      <div className="flex items-center justify-between gap-3 sm:justify-end">
        <p className="text-sm whitespace-nowrap text-muted-foreground" data-testid="document-count">
          {count === undefined ? '' : `${count} ${count === 1 ? 'document' : 'documents'}`}
        </p>
        <Select value={sort} onValueChange={(value) => onSort(value as LibrarySort)} disabled={searching}>
          <SelectTrigger className="w-40" aria-label="Sort documents">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {sorts.map((value) => (
              <SelectItem key={value} value={value}>
                {SORT_LABELS[value]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
    </div>
  );
}
