import { Check, Loader2, Pencil, Sparkles, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@client/components/ui/button';
import { Textarea } from '@client/components/ui/textarea';
import { cn } from '@client/lib/utils';
import type { AiController, PendingSuggestion } from '../useAiActions';

/**
 * The AI suggestion card: the answer streams in; then Accept (writes it as one undo step), Reject, or
 * Modify (edit it first, then accept). If the asked-about text changed meanwhile it says so and Accept
 * inserts the suggestion below instead of overwriting.
 */
export function SuggestionCard({ controller }: { controller: AiController }) {
  if (!controller.suggestion) return null;
  // A new suggestion gets a fresh card (and leaves Modify mode).
  return <Card key={controller.suggestion.key} controller={controller} suggestion={controller.suggestion} />;
}

function Card({ controller, suggestion }: { controller: AiController; suggestion: PendingSuggestion }) {
  const { acceptSuggestion, rejectSuggestion, modifySuggestion } = controller;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const streaming = suggestion.status === 'streaming';

  return (
    <section
      aria-label="AI suggestion"
      data-testid="ai-suggestion-card"
      className={cn(
        'fixed bottom-4 left-1/2 z-40 w-[min(40rem,calc(100%-2rem))] -translate-x-1/2 rounded-xl border bg-popover p-4 text-popover-foreground shadow-2xl',
        // From 1280 px the assistant panel stays open at the bottom right: the card moves left of it.
        controller.assistantOpen && 'xl:left-[calc(50%-11rem)]',
      )}
    >
      <header className="mb-2 flex items-center gap-2 text-sm font-medium">
        <Sparkles className="size-4 text-primary" aria-hidden="true" />
        <span>{suggestion.label}</span>
        {streaming && (
          <span className="inline-flex items-center gap-1 text-xs font-normal text-muted-foreground">
            <Loader2 className="size-3 animate-spin" aria-hidden="true" /> Writing…
          </span>
        )}
        {/* One announcement per suggestion: when it starts and when it is ready to accept. */}
        <span className="sr-only" role="status">
          {streaming ? 'AI is writing a suggestion' : 'Suggestion ready: Accept, Reject or Modify'}
        </span>
      </header>
      {suggestion.originalText && suggestion.mode === 'replace' && (
        <p
          className="mb-2 line-clamp-3 text-xs text-muted-foreground line-through"
          data-testid="ai-suggestion-original"
        >
          {suggestion.originalText}
        </p>
      )}
      {editing ? (
        <Textarea
          aria-label="Edit the suggestion"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          className="min-h-28"
          autoFocus
        />
      ) : (
        <div
          className="max-h-64 overflow-y-auto whitespace-pre-wrap text-sm leading-relaxed"
          // Not a live region: it would re-read the whole text on every streamed token (the status below speaks).
          aria-busy={streaming}
          data-testid="ai-suggestion-text"
        >
          {suggestion.text || (streaming ? '…' : '')}
        </div>
      )}
      {suggestion.stale && (
        <p className="mt-2 text-xs text-amber-600 dark:text-amber-400" role="note">
          The original text changed while the AI was writing, so Accept inserts the suggestion below it
          instead of replacing it.
        </p>
      )}
      <footer className="mt-3 flex justify-end gap-2">
        <Button
          type="button"
          variant="ghost"
          size="sm"
          onClick={rejectSuggestion}
          data-testid="ai-suggestion-reject"
        >
          <X aria-hidden="true" /> Reject
        </Button>
        {editing ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() => {
              modifySuggestion(draft);
              setEditing(false);
            }}
          >
            Done
          </Button>
        ) : (
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={streaming}
            onClick={() => {
              setDraft(suggestion.text);
              setEditing(true);
            }}
            data-testid="ai-suggestion-modify"
          >
            <Pencil aria-hidden="true" /> Modify
          </Button>
        )}
        <Button
          type="button"
          size="sm"
          disabled={streaming}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => acceptSuggestion(editing ? draft : undefined)}
          data-testid="ai-suggestion-accept"
        >
          <Check aria-hidden="true" /> Accept
        </Button>
      </footer>
    </section>
  );
}
