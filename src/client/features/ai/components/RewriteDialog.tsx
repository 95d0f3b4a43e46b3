import {
  Briefcase,
  Check,
  Coffee,
  Copy,
  Eye,
  GraduationCap,
  Loader2,
  Maximize2,
  Megaphone,
  Replace,
  Scissors,
  Sparkles,
  type LucideIcon,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { REWRITE_STYLES, TONE_OPTIONS, type RewriteStyleId, type ToneId } from '@shared/ai/catalog';
import { Button } from '@client/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@client/components/ui/tabs';
import { Textarea } from '@client/components/ui/textarea';
import { toast } from '@client/components/ui/use-toast';
import { cn } from '@client/lib/utils';
import { aiApi, streamAi } from '../api';
import { applyAnswerAtAnchor } from '../apply-at-anchor';
import { WordDiff } from './WordDiff';
import { useUserSettings } from '@client/features/settings';
import { reportAiError } from '../errors';
import { REWRITING_FAILED, SUCCESS, TONE_FAILED } from '../messages';
import type { AiController } from '../useAiActions';
import { ChoiceGroup, ChoiceItem } from '@client/components/ui/choice-group';

const ICONS: Record<string, LucideIcon> = {
  Eye,
  Scissors,
  Maximize2,
  Briefcase,
  Coffee,
  Megaphone,
  GraduationCap,
  Sparkles,
};

/** Static class names per catalogue colour (Tailwind only sees literal class names). */
const COLORS: Record<string, string> = {
  blue: 'text-blue-600 bg-blue-50 dark:bg-blue-950',
  green: 'text-green-600 bg-green-50 dark:bg-green-950',
  purple: 'text-purple-600 bg-purple-50 dark:bg-purple-950',
  slate: 'text-slate-600 bg-slate-100 dark:bg-slate-900',
  orange: 'text-orange-600 bg-orange-50 dark:bg-orange-950',
  red: 'text-red-600 bg-red-50 dark:bg-red-950',
  indigo: 'text-indigo-600 bg-indigo-50 dark:bg-indigo-950',
  pink: 'text-pink-600 bg-pink-50 dark:bg-pink-950',
};

type Tab = 'styles' | 'tones';

/**
 * The full-screen "AI Content Rewriting" dialog: Writing Styles and Tone Adjustment tabs, the selected
 * text, the streamed result, alternative suggestions (word-level diff against the original), Copy, Replace.
 */
export function RewriteDialog({ controller }: { controller: AiController }) {
  const { rewriteOpen, setRewriteOpen } = controller;
  return (
    <Dialog open={rewriteOpen} onOpenChange={setRewriteOpen}>
      <DialogContent
        data-testid="ai-rewrite-dialog"
        className="top-0 left-0 h-dvh max-h-dvh w-screen max-w-none translate-x-0 translate-y-0 grid-rows-[auto_1fr] rounded-none sm:max-w-none"
      >
        <DialogHeader>
          <DialogTitle>AI Content Rewriting</DialogTitle>
          <DialogDescription>Rewrite the selected text in another style or tone.</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so every opening starts empty. */}
        <RewriteBody controller={controller} />
      </DialogContent>
    </Dialog>
  );
}

function RewriteBody({ controller }: { controller: AiController }) {
  const { setRewriteOpen, rewriteAnchor, editor, documentId } = controller;
  const [tab, setTab] = useState<Tab>('styles');
  const [style, setStyle] = useState<RewriteStyleId>('clarity');
  const [tone, setTone] = useState<ToneId>('professional');
  const [instructions, setInstructions] = useState('');
  const [result, setResult] = useState('');
  const [running, setRunning] = useState(false);
  const [alternatives, setAlternatives] = useState<string[]>([]);
  const [loadingAlternatives, setLoadingAlternatives] = useState(false);
  const { preferences } = useUserSettings();
  const abort = useRef<AbortController | null>(null);
  const original = rewriteAnchor?.originalText ?? '';

  // Closing the dialog cancels a running answer.
  useEffect(() => () => abort.current?.abort(), []);

  const run = async () => {
    if (!original) return;
    abort.current?.abort();
    const controllerForRun = new AbortController();
    abort.current = controllerForRun;
    setRunning(true);
    setResult('');
    setAlternatives([]);
    const isTone = tab === 'tones';
    try {
      const answer = await streamAi(
        isTone ? 'tone' : 'rewrite',
        isTone
          ? { text: original, tone, documentId }
          : {
              text: original,
              style,
              documentId,
              ...(instructions.trim() ? { prompt: instructions.trim() } : {}),
            },
        { signal: controllerForRun.signal, onDelta: (_d, soFar) => setResult(soFar) },
      );
      setResult(answer.text.trim());
    } catch (error) {
      setResult('');
      reportAiError(error, isTone ? TONE_FAILED : REWRITING_FAILED);
    } finally {
      if (abort.current === controllerForRun) setRunning(false);
    }
  };

  // A second model call only when the writer asks for it (each call counts against the allowance).
  const findAlternatives = () => {
    if (!original || loadingAlternatives) return;
    const controllerForRun = abort.current;
    setLoadingAlternatives(true);
    aiApi
      .rewritingSuggestions(original)
      .then((r) => {
        if (!controllerForRun?.signal.aborted) setAlternatives(r.suggestions.map((s) => s.suggestion));
      })
      // Alternatives are optional: on failure the list stays empty and the main result still shows.
      .catch((error: unknown) => console.error('Failed to generate alternatives', error))
      .finally(() => setLoadingAlternatives(false));
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(result);
      toast({ title: SUCCESS.copied });
    } catch {
      toast({
        title: 'Copy Failed',
        description: 'Failed to copy text to clipboard',
        variant: 'destructive',
      });
    }
  };

  const replace = async () => {
    if (!editor || !rewriteAnchor || !result) return;
    const outcome = await applyAnswerAtAnchor({
      editor,
      documentId,
      anchor: rewriteAnchor,
      answer: result,
      preference: preferences.aiChanges,
    });
    if (!outcome) return;
    toast(
      outcome === 'replaced'
        ? { title: SUCCESS.replaced }
        : {
            title: SUCCESS.replaced,
            description: 'The selected text changed meanwhile, so the result was inserted below it.',
          },
    );
    setRewriteOpen(false);
  };

  return (
    <div className="grid min-h-0 gap-6 overflow-y-auto lg:grid-cols-2">
      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)} className="min-h-0">
        <TabsList>
          <TabsTrigger value="styles">Writing Styles</TabsTrigger>
          <TabsTrigger value="tones">Tone Adjustment</TabsTrigger>
        </TabsList>
        <TabsContent value="styles" className="space-y-3">
          <ChoiceGroup
            className="grid gap-2 sm:grid-cols-2"
            aria-label="Writing style"
            value={style}
            onValueChange={(value) => setStyle(value as typeof style)}
          >
            {REWRITE_STYLES.map((s) => {
              const Icon = ICONS[s.icon] ?? Sparkles;
              return (
                <ChoiceItem
                  key={s.id}
                  value={s.id}
                  className={cn(
                    'flex items-start gap-3 rounded-lg border p-3 text-left transition hover:bg-accent',
                    'data-[state=checked]:border-primary data-[state=checked]:ring-2 data-[state=checked]:ring-primary/30',
                  )}
                >
                  <span className={cn('rounded-md p-1.5', COLORS[s.color])}>
                    <Icon className="size-4" aria-hidden="true" />
                  </span>
                  <span>
                    <span className="block text-sm font-medium">{s.name}</span>
                    <span className="block text-xs text-muted-foreground">{s.description}</span>
                  </span>
                </ChoiceItem>
              );
            })}
          </ChoiceGroup>
          <Textarea
            aria-label="Additional instructions"
            placeholder="Additional instructions (optional)"
            value={instructions}
            onChange={(event) => setInstructions(event.target.value)}
          />
        </TabsContent>
        <TabsContent value="tones">
          <ChoiceGroup
            className="grid gap-2 sm:grid-cols-2"
            aria-label="Tone"
            value={tone}
            onValueChange={(value) => setTone(value as typeof tone)}
          >
            {TONE_OPTIONS.map((t) => (
              <ChoiceItem
                key={t.id}
                value={t.id}
                className={cn(
                  'rounded-lg border p-3 text-left transition hover:bg-accent',
                  'data-[state=checked]:border-primary data-[state=checked]:ring-2 data-[state=checked]:ring-primary/30',
                )}
              >
                <span className="block text-sm font-medium">{t.name}</span>
                <span className="block text-xs text-muted-foreground">{t.description}</span>
                <span className="mt-1 block text-xs italic text-muted-foreground">“{t.example}”</span>
              </ChoiceItem>
            ))}
          </ChoiceGroup>
        </TabsContent>
        <Button type="button" className="mt-4" onClick={() => void run()} disabled={running || !original}>
          {running ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <Sparkles aria-hidden="true" />
          )}
          {tab === 'tones' ? 'Adjust Tone' : 'Rewrite Text'}
        </Button>
      </Tabs>

      <div className="flex min-h-0 flex-col gap-4">
        <section>
          <h3 className="mb-1 text-sm font-medium">Selected Text</h3>
          <div
            className="max-h-40 overflow-y-auto rounded-md border bg-muted/40 p-3 text-sm whitespace-pre-wrap"
            data-testid="ai-rewrite-original"
          >
            {original}
          </div>
        </section>
        <section>
          <h3 className="mb-1 text-sm font-medium">Result</h3>
          <div
            className="min-h-24 rounded-md border p-3 text-sm whitespace-pre-wrap"
            aria-live="polite"
            data-testid="ai-rewrite-result"
          >
            {result || (
              <span className="text-muted-foreground">
                {running ? 'Rewriting…' : 'Choose a style or tone, then rewrite.'}
              </span>
            )}
          </div>
          <div className="mt-2 flex justify-end gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={!result || running}
              onClick={() => void copy()}
            >
              <Copy aria-hidden="true" /> Copy
            </Button>
            <Button
              type="button"
              size="sm"
              disabled={!result || running}
              onClick={() => void replace()}
              data-testid="ai-rewrite-replace"
            >
              <Replace aria-hidden="true" /> Replace
            </Button>
          </div>
        </section>
        <section>
          <div className="mb-1 flex items-center justify-between gap-2">
            <h3 className="text-sm font-medium">Alternative Suggestions</h3>
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={!original || loadingAlternatives}
              onClick={findAlternatives}
            >
              Find alternatives
            </Button>
          </div>
          {loadingAlternatives && (
            <p className="text-xs text-muted-foreground" role="status">
              <Loader2 className="mr-1 inline size-3 animate-spin" aria-hidden="true" />
              Finding alternatives…
            </p>
          )}
          <ul className="space-y-2">
            {alternatives.map((alternative, index) => (
              <li key={index} className="rounded-md border p-3 text-sm">
                <WordDiff before={original} after={alternative} />
                <div className="mt-2 flex justify-end">
                  <Button type="button" variant="ghost" size="sm" onClick={() => setResult(alternative)}>
                    <Check aria-hidden="true" /> Use this
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}
