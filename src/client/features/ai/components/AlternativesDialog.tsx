import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, RefreshCw } from 'lucide-react';
import { useEffect } from 'react';
import { SELECTION_ALTERNATIVES_COUNT } from '@shared/constants';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { Skeleton } from '@client/components/ui/skeleton';
import { toast } from '@client/components/ui/use-toast';
import { useUserSettings } from '@client/features/settings';
import { aiApi } from '../api';
import { applyAnswerAtAnchor } from '../apply-at-anchor';
import type { Anchor } from '@client/features/editor';
import { reportAiError } from '../errors';
import { FAILED, SUCCESS } from '../messages';
import { aiUsageKey } from '../queries';
import type { AiController } from '../useAiActions';
import { WordDiff } from './WordDiff';

/**
 * The selection helper's "Alternatives": rephrasings of the selection side by side, each shown as a word diff
 * against it. Picking one writes it like every AI change: as a suggestion to review (or at once, as the
 * writer's "AI changes" preference says), one undo step, with a version kept before it.
 */
export function AlternativesDialog({ controller }: { controller: AiController }) {
  const { alternativesAnchor, setAlternativesOpen } = controller;
  return (
    <Dialog open={alternativesAnchor !== null} onOpenChange={setAlternativesOpen}>
      <DialogContent
        data-testid="ai-alternatives-dialog"
        className="max-h-[90dvh] overflow-y-auto sm:max-w-5xl"
      >
        <DialogHeader>
          <DialogTitle>Alternatives</DialogTitle>
          <DialogDescription>
            Other ways to say the selected text. Changes against it are marked; pick one to use it.
          </DialogDescription>
        </DialogHeader>
        {alternativesAnchor && <AlternativesBody controller={controller} anchor={alternativesAnchor} />}
      </DialogContent>
    </Dialog>
  );
}

function AlternativesBody({ controller, anchor }: { controller: AiController; anchor: Anchor }) {
  const { editor, documentId, setAlternativesOpen } = controller;
  const { preferences } = useUserSettings();
  const queryClient = useQueryClient();
  const original = anchor.originalText;
  const alternatives = useQuery({
    queryKey: ['ai-alternatives', documentId, original],
    queryFn: async () => {
      try {
        const { alternatives: items } = await aiApi.alternatives(
          original,
          SELECTION_ALTERNATIVES_COUNT,
          documentId,
        );
        return items.filter((item) => item.trim() && item.trim() !== original.trim());
      } finally {
        void queryClient.invalidateQueries({ queryKey: aiUsageKey });
      }
    },
    // Each opening is a fresh request (it counts against the allowance, and the writer expects new ideas).
    gcTime: 0,
    staleTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const { error } = alternatives;
  // The failure toast (quota, no provider…) once per failed request.
  useEffect(() => {
    if (error) reportAiError(error, { description: FAILED.alternatives });
  }, [error]);

  const use = async (text: string) => {
    if (!editor) return;
    const outcome = await applyAnswerAtAnchor({
      editor,
      documentId,
      anchor,
      answer: text,
      preference: preferences.aiChanges,
    });
    if (!outcome) return;
    toast(
      outcome === 'replaced'
        ? { title: SUCCESS.alternative }
        : {
            title: SUCCESS.alternative,
            description: 'The selected text changed meanwhile, so the alternative was inserted below it.',
          },
    );
    setAlternativesOpen(false);
  };

  return (
    <div className="space-y-4">
      <section aria-label="Selected text" className="rounded-lg border bg-muted/40 p-3 text-sm">
        <h3 className="mb-1 text-xs font-medium tracking-wide text-muted-foreground uppercase">
          Selected text
        </h3>
        <p className="whitespace-pre-wrap">{original}</p>
      </section>
      {alternatives.isPending ? (
        <div className="grid gap-3 md:grid-cols-3" aria-busy="true" aria-label="Finding alternatives">
          {Array.from({ length: SELECTION_ALTERNATIVES_COUNT }, (_, i) => (
            <Skeleton key={i} className="h-32 w-full" />
          ))}
        </div>
      ) : error || !alternatives.data?.length ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-sm">
          <span>{error ? FAILED.alternatives : 'The AI found no other way to say this.'}</span>
          <Button type="button" variant="outline" size="sm" onClick={() => void alternatives.refetch()}>
            <RefreshCw aria-hidden="true" /> Try again
          </Button>
        </div>
      ) : (
        <ol className="grid gap-3 md:grid-cols-3" aria-label="Alternatives">
          {alternatives.data.map((text, index) => (
            <li
              key={`${index}-${text}`}
              data-testid="ai-alternative"
              className="flex flex-col gap-3 rounded-lg border bg-card p-3 text-sm text-card-foreground"
            >
              <h3 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
                Option {index + 1}
              </h3>
              <p className="flex-1 leading-relaxed">
                <WordDiff before={original} after={text} />
              </p>
              <Button
                type="button"
                size="sm"
                className="self-start"
                aria-label={`Use option ${index + 1}`}
                onClick={() => void use(text)}
              >
                <Check aria-hidden="true" /> Use this
              </Button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
