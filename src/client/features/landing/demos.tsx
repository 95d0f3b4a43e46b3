import { CloudCheck, FileText, Sparkles, Wand2 } from 'lucide-react';
import { useState } from 'react';
import {
  DEMO_REFACTOR_MS,
  DEMO_SAVED_COUNTER_MAX,
  DEMO_SAVED_COUNTER_MS,
  DEMO_SUGGESTION_TOGGLE_MS,
} from '@shared/constants';
import { cn } from '@client/lib/utils';
import { useDemoMotion, useInterval, useInView } from './motion';

function DemoWindow({
  title,
  children,
  footer,
  ref,
}: {
  title: string;
  children: React.ReactNode;
  footer?: React.ReactNode;
  ref?: React.Ref<HTMLDivElement>;
}) {
  return (
    <div
      ref={ref}
      className="overflow-hidden rounded-2xl border bg-card text-card-foreground shadow-xl shadow-primary/5"
    >
      <div className="flex items-center gap-2 border-b px-4 py-2.5 text-sm text-muted-foreground">
        <FileText className="size-4" aria-hidden="true" />
        <span className="truncate">{title}</span>
      </div>
      <div className="p-5 sm:p-6">{children}</div>
      {footer && <div className="border-t bg-muted/50 px-5 py-2.5 text-sm">{footer}</div>}
    </div>
  );
}

/** Context-aware completion: the ghost suggestion appears and disappears every DEMO_SUGGESTION_TOGGLE_MS. */
export function CompletionDemo() {
  const { animate } = useDemoMotion();
  const [visible, setVisible] = useState(true);
  const [ref, inView] = useInView<HTMLDivElement>();
  useInterval(() => setVisible((v) => !v), DEMO_SUGGESTION_TOGGLE_MS, animate && inView);
  const shown = visible || !animate;
  return (
    <DemoWindow
      ref={ref}
      title="essay-draft.md"
      footer={
        <span className="flex items-center justify-between gap-3 text-muted-foreground">
          <span className="inline-flex min-w-0 items-center gap-1.5">
            <Sparkles className="size-4 shrink-0 text-primary" aria-hidden="true" />
            Suggested from your draft
          </span>
          <span
            className={cn(
              'shrink-0 whitespace-nowrap transition-opacity duration-300',
              shown ? 'opacity-100' : 'opacity-0',
            )}
          >
            <kbd className="rounded border bg-background px-1.5 py-0.5 font-mono text-xs text-foreground">
              Tab
            </kbd>{' '}
            to accept
          </span>
        </span>
      }
    >
      <p className="font-serif text-lg leading-relaxed">
        Good writing is rewriting. The first draft gets the ideas onto the page;{' '}
        <span
          data-testid="completion-suggestion"
          data-visible={shown}
          className={cn(
            'text-muted-foreground italic transition-opacity duration-500',
            shown ? 'opacity-100' : 'opacity-0',
          )}
        >
          the second draft is where you find out what you were really trying to say.
        </span>
      </p>
    </DemoWindow>
  );
}

const DRAFT =
  'So this quarter we did a lot of things, and honestly some went better than others. Sign-ups grew by about ' +
  'a third after the spring launch, mostly from the student plan, but churn crept up in June because the ' +
  'export feature kept timing out, which the team has now fixed, and we think next quarter should focus on ' +
  'teams since that is where people keep asking us for more.';

const SUMMARY = [
  'Sign-ups up roughly 33% after the spring launch, led by students.',
  'June churn rose on export timeouts; the fix has shipped.',
  'Next quarter: focus on team features, our most requested area.',
];

/** Instant refactor: the same text flips between the draft and its executive summary every DEMO_REFACTOR_MS. */
export function RefactorDemo() {
  const { animate } = useDemoMotion();
  const [summary, setSummary] = useState(false);
  const [ref, inView] = useInView<HTMLDivElement>();
  useInterval(() => setSummary((s) => !s), DEMO_REFACTOR_MS, animate && inView);
  return (
    <DemoWindow
      ref={ref}
      title="q3-update.docx"
      footer={
        <span className="flex items-center justify-between gap-3">
          <span className="min-w-0 text-muted-foreground">
            <Wand2 className="mr-1.5 inline size-4 align-[-3px] text-primary" aria-hidden="true" />
            Refactor into <span className="font-medium text-foreground">Executive summary</span>
          </span>
          <button
            type="button"
            onClick={() => setSummary((s) => !s)}
            className="shrink-0 rounded-md px-2 py-1 font-medium whitespace-nowrap text-primary hover:bg-accent"
          >
            {summary ? 'Show draft' : 'Show summary'}
          </button>
        </span>
      }
    >
      <div className="grid" data-testid="refactor-demo" data-state={summary ? 'summary' : 'draft'}>
        <div
          aria-hidden={summary}
          className={cn(
            'col-start-1 row-start-1 transition-opacity duration-500',
            summary ? 'invisible opacity-0' : 'opacity-100',
          )}
        >
          <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Draft</p>
          <p className="mt-2 leading-relaxed">{DRAFT}</p>
        </div>
        <div
          aria-hidden={!summary}
          className={cn(
            'col-start-1 row-start-1 transition-opacity duration-500',
            summary ? 'opacity-100' : 'invisible opacity-0',
          )}
        >
          <p className="text-xs font-semibold tracking-wide text-primary uppercase">Executive summary</p>
          <ul className="mt-2 space-y-2">
            {SUMMARY.map((line) => (
              <li key={line} className="flex gap-2 leading-relaxed">
                <span className="mt-2.5 size-1.5 shrink-0 rounded-full bg-primary" aria-hidden="true" />
                {line}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </DemoWindow>
  );
}

/** Always-on autosave: "Saved N seconds ago", N counting 1..DEMO_SAVED_COUNTER_MAX once a second. */
export function AutosaveDemo() {
  const { animate } = useDemoMotion();
  const [seconds, setSeconds] = useState(1);
  const [ref, inView] = useInView<HTMLDivElement>();
  useInterval(
    () => setSeconds((n) => (n % DEMO_SAVED_COUNTER_MAX) + 1),
    DEMO_SAVED_COUNTER_MS,
    animate && inView,
  );
  return (
    <DemoWindow
      ref={ref}
      title="novel-chapter-12.md"
      footer={
        <span className="flex items-center justify-between gap-3 text-muted-foreground">
          <span className="inline-flex items-center gap-1.5" data-testid="autosave-status">
            <CloudCheck className="size-4 text-success" aria-hidden="true" />
            Saved {seconds} {seconds === 1 ? 'second' : 'seconds'} ago
          </span>
          <span className="tabular-nums">1,284 words</span>
        </span>
      }
    >
      <div className="space-y-3 font-serif leading-relaxed">
        <p className="text-lg font-semibold">Chapter 12</p>
        <p>
          The train pulled out of the station before she had decided whether she wanted to be on it. Outside,
          the city folded itself into fields.
        </p>
        <p className="text-card-foreground/80">
          She opened the notebook on her knee and started, again, at the beginning.
        </p>
      </div>
    </DemoWindow>
  );
}
