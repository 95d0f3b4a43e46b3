import { formatDistanceToNow } from 'date-fns';
import { FileTextIcon, Loader2Icon } from 'lucide-react';
import { Link } from 'wouter';
import { errorMessage } from '@client/lib/api';
import { Snippet, type useSearch } from '@client/features/search';

/**
 * The dashboard's search results: best match first, each with its highlighted passage. The dashboard runs the
 * search (its toolbar counts the same results) and passes the query it ran.
 */
export function SearchResults({
  query: debounced,
  search,
}: {
  query: string;
  search: ReturnType<typeof useSearch>;
}) {
  if (search.isError) {
    return (
      <p
        role="alert"
        className="rounded-xl border bg-card px-6 py-10 text-center text-sm text-muted-foreground"
      >
        {errorMessage(search.error)}
      </p>
    );
  }
  if (!search.data) {
    return (
      <p className="flex items-center justify-center gap-2 py-10 text-sm text-muted-foreground">
        <Loader2Icon className="size-4 animate-spin" aria-hidden="true" /> Searching…
      </p>
    );
  }
  if (search.data.length === 0) {
    return (
      <p className="rounded-xl border border-dashed bg-card px-6 py-12 text-center text-sm text-muted-foreground">
        No documents match “{debounced.trim()}”.
      </p>
    );
  }
  return (
    <ul className="flex flex-col gap-2" aria-label="Search results" aria-busy={search.isFetching}>
      {search.data.map((hit) => (
        <li
          key={hit.id}
          className="relative rounded-xl border bg-card px-5 py-4 shadow-xs hover:border-primary/40"
        >
          <div className="flex items-center gap-2">
            <FileTextIcon className="size-4 shrink-0 text-primary" aria-hidden="true" />
            <Link
              href={`/editor/${hit.id}`}
              className="truncate font-semibold outline-none after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:after:ring-2 focus-visible:after:ring-ring"
            >
              {hit.title}
            </Link>
            <span className="ml-auto shrink-0 text-xs text-muted-foreground">
              {formatDistanceToNow(new Date(hit.updated_at), { addSuffix: true })}
            </span>
          </div>
          {hit.snippet ? (
            <Snippet html={hit.snippet} className="mt-1.5 line-clamp-2 text-sm text-muted-foreground" />
          ) : null}
        </li>
      ))}
    </ul>
  );
}
