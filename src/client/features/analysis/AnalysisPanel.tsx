import type { Editor } from '@tiptap/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ANALYSIS_DEBOUNCE_MS, LONG_SENTENCE_WORDS } from '@shared/constants';
import { fallbackAnalysis, type AnalysisRange, type DocumentAnalysis } from '@shared/analysis/result';
import { cn } from '@client/lib/utils';
import { analysisBlocks } from './analysis-blocks';
import { analysisHighlightsKey, analysisHighlightsPlugin, type AnalysisItemKey } from './analysis-highlights';
import { acquireAnalysisRunner } from './analysis-runner';
import './analysis.css';

/**
 * The Analyze section of the Document Stats panel (loaded when first opened): readability, sentiment, sentence
 * lengths, long sentences, passive voice, repeated words and suggestions, offline. While it is open the
 * document is analysed again after each pause in typing and its long sentences and passive constructions are
 * highlighted in the text; clicking an item selects it in the text, clicking a highlight brings its item
 * forward here. Closing it removes the highlights.
 */
export function AnalysisPanel({ editor }: { editor: Editor }) {
  const [analysis, setAnalysis] = useState<DocumentAnalysis | null>(null);
  const [active, setActive] = useState<AnalysisItemKey | null>(null);
  const rootRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (editor.isDestroyed) return;
    const { runner, release } = acquireAnalysisRunner();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(run, ANALYSIS_DEBOUNCE_MS);
    };

    const show = (result: DocumentAnalysis) => {
      if (stopped || editor.isDestroyed) return;
      // Decorations changing under an IME composition can break it: shown after the next pause instead.
      if (editor.view.composing) return schedule();
      setAnalysis(result);
      editor.view.dispatch(
        editor.state.tr.setMeta(analysisHighlightsKey, { analysis: result }).setMeta('addToHistory', false),
      );
    };
    const run = () => {
      timer = undefined;
      if (stopped || editor.isDestroyed) return;
      const doc = editor.state.doc;
      let blocks;
      try {
        blocks = analysisBlocks(doc);
      } catch {
        return show(fallbackAnalysis());
      }
      runner.analyze(blocks).then(
        (result) => {
          // Positions are those of `doc`: an answer for an older document waits for the run its change queued.
          if (editor.isDestroyed || editor.state.doc !== doc) return;
          show(result);
        },
        () => show(fallbackAnalysis()),
      );
    };

    editor.registerPlugin(
      analysisHighlightsPlugin({
        onHighlightClick: (key) => setActive(key),
      }),
    );
    editor.on('update', schedule);
    run();
    return () => {
      stopped = true;
      clearTimeout(timer);
      editor.off('update', schedule);
      if (!editor.isDestroyed) editor.unregisterPlugin(analysisHighlightsKey);
      release();
    };
  }, [editor]);

  // A clicked highlight's item is brought into view inside the panel's own scroll area (never the page: on a
  // phone the panel sits above the text the writer just clicked).
  useEffect(() => {
    if (!active) return;
    const item = rootRef.current?.querySelector<HTMLElement>(`[data-analysis-item="${active}"]`);
    const scroller = item?.closest<HTMLElement>('[data-analysis-scroll]');
    if (!item || !scroller || scroller.scrollHeight <= scroller.clientHeight) return;
    const itemBox = item.getBoundingClientRect();
    const box = scroller.getBoundingClientRect();
    if (itemBox.top < box.top || itemBox.bottom > box.bottom) {
      scroller.scrollTop += itemBox.top - box.top - box.height / 3;
    }
  }, [active, analysis]);

  const select = (key: AnalysisItemKey, range: AnalysisRange) => {
    setActive(key);
    const size = editor.state.doc.content.size;
    const from = Math.min(Math.max(0, range.from), size);
    const to = Math.min(Math.max(from, range.to), size);
    editor.chain().focus().setTextSelection({ from, to }).scrollIntoView().run();
  };

  return (
    <section
      ref={rootRef}
      id="analysis-panel"
      aria-label="Analysis"
      aria-busy={analysis === null}
      data-testid="analysis-panel"
      className="space-y-5 text-sm"
    >
      {analysis === null ? (
        <p className="text-muted-foreground" role="status">
          Analyzing…
        </p>
      ) : (
        <AnalysisResult analysis={analysis} active={active} onSelect={select} />
      )}
    </section>
  );
}

function Section({ title, count, children }: { title: string; count?: number; children: ReactNode }) {
  return (
    <div>
      <h3 className="mb-2 flex items-baseline justify-between text-xs font-semibold uppercase tracking-wide text-muted-foreground">
        {title}
        {count !== undefined && <span className="tabular-nums">{count}</span>}
      </h3>
      {children}
    </div>
  );
}

function AnalysisResult({
  analysis,
  active,
  onSelect,
}: {
  analysis: DocumentAnalysis;
  active: AnalysisItemKey | null;
  onSelect: (key: AnalysisItemKey, range: AnalysisRange) => void;
}) {
  const { readability, sentiment } = analysis;
  const most = Math.max(1, ...analysis.sentenceLengths.map((b) => b.count));
  const itemClass = (key: AnalysisItemKey) =>
    cn(
      'w-full rounded-md border bg-background px-2 py-1.5 text-left text-xs break-words transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
      active === key && 'border-primary ring-1 ring-primary',
    );

  return (
    <>
      {analysis.fallback && analysis.wordCount === 0 && (
        <p className="text-muted-foreground">Write a few sentences to analyze them.</p>
      )}
      <div className="grid grid-cols-2 gap-3">
        <div className="rounded-md border bg-background p-2">
          <div className="text-xs text-muted-foreground">Readability</div>
          <div className="text-lg font-semibold tabular-nums" data-testid="analysis-readability">
            {readability.score.toFixed(1)}
            <span className="text-xs font-normal text-muted-foreground">/10</span>
          </div>
          <div className="text-xs">{readability.label}</div>
          <div className="text-xs text-muted-foreground tabular-nums">
            Flesch {Math.round(readability.fleschReadingEase)}
            {!analysis.fallback && ` · grade ${readability.gradeLevel.toFixed(1)}`}
          </div>
        </div>
        <div className="rounded-md border bg-background p-2">
          <div className="text-xs text-muted-foreground">Sentiment</div>
          <div className="text-lg font-semibold capitalize" data-testid="analysis-sentiment">
            {sentiment.label}
          </div>
          <div className="text-xs text-muted-foreground tabular-nums">
            {sentiment.comparative > 0 ? '+' : ''}
            {sentiment.comparative.toFixed(2)} per word
          </div>
        </div>
      </div>

      <Section title="Sentence lengths">
        <ul className="space-y-1" data-testid="analysis-sentence-lengths">
          {analysis.sentenceLengths.map((bucket) => (
            <li
              key={bucket.label}
              className="grid grid-cols-[3.25rem_1fr_1.75rem] items-center gap-2 text-xs"
            >
              <span className="sr-only">
                {bucket.label} words: {bucket.count} {bucket.count === 1 ? 'sentence' : 'sentences'}
              </span>
              <span aria-hidden className="text-muted-foreground tabular-nums">
                {bucket.label}
              </span>
              <span aria-hidden className="h-2 overflow-hidden rounded-full bg-muted">
                <span
                  className={cn(
                    'block h-full rounded-full',
                    bucket.max === null ? 'bg-amber-500 dark:bg-amber-400' : 'bg-primary/70',
                  )}
                  style={{ width: `${(bucket.count / most) * 100}%` }}
                />
              </span>
              <span aria-hidden className="text-right tabular-nums">
                {bucket.count}
              </span>
            </li>
          ))}
        </ul>
      </Section>

      <Section title="Long sentences" count={analysis.longSentences.length}>
        {analysis.longSentences.length === 0 ? (
          <p className="text-xs text-muted-foreground">None over {LONG_SENTENCE_WORDS} words.</p>
        ) : (
          <ul className="space-y-1.5" data-testid="analysis-long-sentences">
            {analysis.longSentences.map((sentence, index) => {
              const key: AnalysisItemKey = `long:${index}`;
              return (
                <li key={key}>
                  <button
                    type="button"
                    data-analysis-item={key}
                    aria-current={active === key ? 'true' : undefined}
                    className={itemClass(key)}
                    onClick={() => onSelect(key, sentence)}
                  >
                    <span className="font-medium tabular-nums">{sentence.words} words</span>
                    <span className="mt-0.5 line-clamp-2 text-muted-foreground">{sentence.text}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </Section>

      <Section title="Passive voice" count={analysis.passive.length}>
        {analysis.passive.length === 0 ? (
          <p className="text-xs text-muted-foreground">None found.</p>
        ) : (
          <ul className="flex flex-wrap gap-1.5" data-testid="analysis-passive">
            {analysis.passive.map((passive, index) => {
              const key: AnalysisItemKey = `passive:${index}`;
              return (
                <li key={key}>
                  <button
                    type="button"
                    data-analysis-item={key}
                    aria-current={active === key ? 'true' : undefined}
                    className={cn(itemClass(key), 'w-auto')}
                    onClick={() => onSelect(key, passive)}
                  >
                    {passive.text}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </Section>

      <Section title="Repeated words" count={analysis.repeatedWords.length}>
        {analysis.repeatedWords.length === 0 ? (
          <p className="text-xs text-muted-foreground">Nothing stands out.</p>
        ) : (
          <ul className="flex flex-wrap gap-1.5" data-testid="analysis-repeated-words">
            {analysis.repeatedWords.map((entry) => (
              <li
                key={entry.word}
                className="rounded-full border bg-background px-2 py-0.5 text-xs"
                title={
                  entry.closeRepeats > 0
                    ? `${entry.count} uses, ${entry.closeRepeats} within a few words of the last`
                    : `${entry.count} uses`
                }
              >
                {entry.word} <span className="text-muted-foreground tabular-nums">×{entry.count}</span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section title="Suggestions">
        <ul className="list-disc space-y-1 pl-4 text-xs" data-testid="analysis-suggestions">
          {analysis.suggestions.map((suggestion) => (
            <li key={suggestion}>{suggestion}</li>
          ))}
        </ul>
      </Section>
    </>
  );
}
