import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type ComponentProps, type KeyboardEvent, type RefObject } from 'react';
import { Textarea } from '@client/components/ui/textarea';
import { cn } from '@client/lib/utils';
import type { Mention } from '@shared/mentions';
import type { CommentsApi } from '../api';
import { insertMention, matchPeople, mentionQuery, type MentionCandidate } from '../mention-text';

type TextareaProps = Omit<ComponentProps<'textarea'>, 'value' | 'onChange' | 'ref'>;

/**
 * A comment box where `@` suggests the people on the document (by name or address): a listbox under the box,
 * ArrowUp/ArrowDown to move, Enter or Tab to pick, Escape to close it. Picking writes `@Name` and reports the
 * person, whom sending turns into a mention (mention-text.ts). Where the page cannot list people (a share-link
 * visitor), it is a plain box.
 */
export function MentionTextarea({
  api,
  value,
  onValueChange,
  onPick,
  onKeyDown,
  textareaRef,
  className,
  ...props
}: TextareaProps & {
  api: CommentsApi;
  value: string;
  onValueChange: (value: string) => void;
  onPick: (person: Mention) => void;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
}) {
  const fallback = useRef<HTMLTextAreaElement | null>(null);
  const own = textareaRef ?? fallback;
  const listId = useId();
  const [at, setAt] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const people = useQuery({
    queryKey: ['comment-mentions', api.documentId],
    queryFn: () => api.mentionable!(),
    enabled: at !== null && api.mentionable !== undefined,
    staleTime: 60_000,
  });
  const matches: MentionCandidate[] = at && people.data ? matchPeople(people.data.people, at.query) : [];
  const open = at !== null && matches.length > 0;

  const look = (text: string, caret: number | null) => {
    const next = api.mentionable && caret !== null ? mentionQuery(text, caret) : null;
    setAt(next);
    if (next?.query !== at?.query) setActive(0);
  };

  const pick = (person: MentionCandidate) => {
    if (!at) return;
    const { text, caret } = insertMention(value, at, person);
    onValueChange(text);
    onPick({ id: person.id, name: person.name });
    setAt(null);
    requestAnimationFrame(() => {
      own.current?.focus();
      own.current?.setSelectionRange(caret, caret);
    });
  };

  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((index) => (index + step + matches.length) % matches.length);
        return;
      }
      if ((event.key === 'Enter' && !event.ctrlKey && !event.metaKey) || event.key === 'Tab') {
        event.preventDefault();
        pick(matches[Math.min(active, matches.length - 1)]!);
        return;
      }
      if (event.key === 'Escape') {
        // Closes the suggestions only, not the box around them.
        event.preventDefault();
        event.stopPropagation();
        setAt(null);
        return;
      }
    }
    onKeyDown?.(event);
  };

  const optionId = (index: number) => `${listId}-${index}`;
  return (
    <div className="relative">
      <Textarea
        {...props}
        ref={own}
        value={value}
        className={className}
        aria-autocomplete={api.mentionable ? 'list' : undefined}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? optionId(Math.min(active, matches.length - 1)) : undefined}
        onChange={(event) => {
          onValueChange(event.target.value);
          look(event.target.value, event.target.selectionStart);
        }}
        onKeyDown={keyDown}
        onClick={(event) => look(event.currentTarget.value, event.currentTarget.selectionStart)}
        onBlur={() => setAt(null)}
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label="People to mention"
          data-testid="mention-suggestions"
          className="absolute inset-x-0 top-full z-50 mt-1 max-h-56 overflow-y-auto rounded-md border bg-popover p-1 text-popover-foreground shadow-lg"
        >
          {matches.map((person, index) => (
            <li
              key={person.id}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              // Keeps the focus in the box.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(person)}
              onMouseEnter={() => setActive(index)}
              className={cn(
                'cursor-pointer rounded px-2 py-1 text-sm',
                index === active && 'bg-accent text-accent-foreground',
              )}
            >
              <span className="block truncate font-medium">{person.name}</span>
              <span className="block truncate text-xs text-muted-foreground">{person.email}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
