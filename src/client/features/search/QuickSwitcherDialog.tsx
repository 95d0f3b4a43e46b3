import { FileTextIcon, LayoutTemplateIcon, Loader2Icon, PinIcon, SearchIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'wouter';
import { QUICK_SWITCHER_RECENT_COUNT, SEARCH_DEBOUNCE_MS } from '@shared/constants';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@client/components/ui/dialog';
import { cn } from '@client/lib/utils';
import { useLibrary, useSearch } from './queries';
import { Snippet } from './Snippet';
import { useDebouncedValue } from './use-debounced-value';

interface Choice {
  id: string;
  title: string;
  pinned?: boolean;
  /** Not a document: something to do (it has no document id). */
  action?: 'newFromTemplate';
  /** Highlighted snippet (search) or plain opening text (recent). */
  snippet?: string;
  preview?: string;
}

const NEW_FROM_TEMPLATE: Choice = {
  id: 'new-from-template',
  title: 'New from template…',
  action: 'newFromTemplate',
};

/** The quick switcher's dialog (see QuickSwitcher, which opens it). */
export function QuickSwitcherDialog({
  open,
  onOpenChange,
  currentId,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  currentId?: string | undefined;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? <QuickSwitcherPanel currentId={currentId} onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

function QuickSwitcherPanel({ currentId, onDone }: { currentId?: string | undefined; onDone(): void }) {
  const [, navigate] = useLocation();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const debounced = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  const searching = debounced.trim().length > 0;
  const recent = useLibrary('updated', QUICK_SWITCHER_RECENT_COUNT, !searching);
  const search = useSearch(debounced, QUICK_SWITCHER_RECENT_COUNT);
  const listId = useId();
  const listRef = useRef<HTMLUListElement>(null);

  // With nothing typed: the pinned documents first (the library lists them first), then the latest, then the
  // way to start one from a template.
  const choices: Choice[] = searching
    ? (search.data ?? []).map((hit) => ({ id: hit.id, title: hit.title, snippet: hit.snippet }))
    : [
        ...(recent.data?.documents ?? []).map((doc) => ({
          id: doc.id,
          title: doc.title,
          preview: doc.preview,
          pinned: doc.pinned,
        })),
        ...(recent.data ? [NEW_FROM_TEMPLATE] : []),
      ];
  const anyPinned = choices.some((choice) => choice.pinned);
  const selected = Math.min(active, Math.max(choices.length - 1, 0));
  const loading = searching ? search.isFetching && !search.data : recent.isLoading;
  const tooLong = searching && search.isError;

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${selected}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [selected]);

  const openChoice = (choice: Choice | undefined) => {
    if (!choice) return;
    onDone();
    // The dashboard opens its templates dialog for this address.
    if (choice.action === 'newFromTemplate') navigate('/?new=template');
    else if (choice.id !== currentId) navigate(`/editor/${choice.id}`);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((selected + 1) % Math.max(choices.length, 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((selected - 1 + choices.length) % Math.max(choices.length, 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      openChoice(choices[selected]);
    }
  };

  return (
    <DialogContent className="top-[15vh] max-w-xl translate-y-0 gap-0 p-0" showCloseButton={false}>
      <DialogTitle className="sr-only">Go to a document</DialogTitle>
      <DialogDescription className="sr-only">
        Type to search your documents by title and text. Use the arrow keys to choose and Enter to open.
      </DialogDescription>
      <div className="flex items-center gap-2 border-b px-4">
        <SearchIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <input
          autoFocus
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={choices.length ? `${listId}-${selected}` : undefined}
          aria-label="Search documents"
          placeholder="Search documents…"
          className="h-12 w-full bg-transparent text-sm outline-none placeholder:text-muted-foreground"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        {loading || (searching && search.isFetching) ? (
          <Loader2Icon className="size-4 shrink-0 animate-spin text-muted-foreground" aria-hidden="true" />
        ) : null}
      </div>
      <p className="px-4 pt-3 pb-1 text-xs font-medium text-muted-foreground">
        {searching ? 'Results' : anyPinned ? 'Pinned and recent documents' : 'Recent documents'}
      </p>
      <ul
        id={listId}
        ref={listRef}
        role="listbox"
        aria-label="Documents"
        className="max-h-[50vh] overflow-y-auto px-2 pb-2"
      >
        {choices.map((choice, index) => (
          <li
            key={choice.id}
            id={`${listId}-${index}`}
            data-index={index}
            role="option"
            aria-selected={index === selected}
            className={cn(
              'flex cursor-pointer items-start gap-3 rounded-md px-3 py-2 text-sm',
              index === selected ? 'bg-accent text-accent-foreground' : 'hover:bg-accent/60',
            )}
            onMouseMove={() => setActive(index)}
            onClick={() => openChoice(choice)}
          >
            {choice.action ? (
              <LayoutTemplateIcon
                className="mt-0.5 size-4 shrink-0 text-muted-foreground"
                aria-hidden="true"
              />
            ) : choice.pinned ? (
              <PinIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-label="Pinned" role="img" />
            ) : (
              <FileTextIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            )}
            <span className="min-w-0">
              <span className="block truncate font-medium">{choice.title}</span>
              {choice.snippet ? (
                <Snippet html={choice.snippet} className="line-clamp-2 text-xs text-muted-foreground" />
              ) : choice.preview ? (
                <span className="block truncate text-xs text-muted-foreground">{choice.preview}</span>
              ) : null}
            </span>
          </li>
        ))}
        {!loading && choices.every((choice) => choice.action) ? (
          <li className="px-3 py-6 text-center text-sm text-muted-foreground" role="presentation">
            {tooLong
              ? 'That search is too long.'
              : searching
                ? 'No documents match your search.'
                : 'No documents yet.'}
          </li>
        ) : null}
      </ul>
      <p className="border-t px-4 py-2 text-xs text-muted-foreground">
        <kbd className="font-sans">↑</kbd> <kbd className="font-sans">↓</kbd> to choose ·{' '}
        <kbd className="font-sans">Enter</kbd> to open · <kbd className="font-sans">Esc</kbd> to close
      </p>
    </DialogContent>
  );
}
