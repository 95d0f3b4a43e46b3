import { BarChart3, ChevronLeft, ChevronRight, FileText, Gauge, Sparkles, Wand2 } from 'lucide-react';
import { Suspense } from 'react';
import { Button } from '@client/components/ui/button';
import type { Editor } from '@tiptap/core';
import { cn } from '@client/lib/utils';
import { useEditorStats } from '../hooks/useEditorStats';
import { useEditorPlugins } from '../plugins';

export interface StatsPanelProps {
  editor: Editor | null;
  collapsed: boolean;
  onCollapsedChange: (collapsed: boolean) => void;
  /** AI Writing Tools (features/ai). Smart Improve opens the assistant; a missing action disables its button. */
  onSmartImprove?: () => void;
  onContinueWriting?: () => void;
  onSummarize?: () => void;
  /** Whether the Analyze section is open (offline analysis with highlights in the text). */
  analysisOpen?: boolean;
  onAnalysisOpenChange?: (open: boolean) => void;
}

/** The collapsible left panel 'Document Stats' with the AI Writing Tools. */
export function StatsPanel(props: StatsPanelProps) {
  const { editor, collapsed, onCollapsedChange, onSmartImprove, onContinueWriting, onSummarize } = props;
  const { analysisOpen = false, onAnalysisOpenChange } = props;
  // The Analyze section comes from a plugin (features/analysis), which loads it on first open.
  const { AnalysisPanel } = useEditorPlugins();
  const analyzing = analysisOpen && editor !== null && AnalysisPanel !== undefined;
  if (collapsed) {
    return (
      // Below md the panel sits above the text as a full-width row; from md it is the left column.
      <aside className="flex shrink-0 border-b px-2 py-1 md:w-10 md:justify-center md:border-r md:border-b-0 md:px-0 md:pt-3">
        <Button
          variant="ghost"
          size="sm"
          className="md:size-8 md:p-0"
          aria-label="Show document stats"
          aria-expanded={false}
          onClick={() => onCollapsedChange(false)}
        >
          <ChevronRight className="max-md:rotate-90" />
          <span className="md:hidden">Document Stats</span>
        </Button>
      </aside>
    );
  }
  return (
    <aside
      className="shrink-0 border-b bg-muted/30 md:w-64 md:border-r md:border-b-0"
      aria-label="Document Stats"
    >
      <div
        data-analysis-scroll
        className={cn(
          'grid gap-6 p-4 sm:grid-cols-2 md:sticky md:top-32 md:block md:space-y-6',
          // With the analysis open the column can outgrow the window: it scrolls on its own.
          analyzing && 'md:max-h-[calc(100dvh-8rem)] md:overflow-y-auto',
        )}
      >
        <div>
          <div className="mb-3 flex items-center justify-between">
            <h2 className="flex items-center gap-2 text-sm font-semibold">
              <BarChart3 className="size-4" aria-hidden /> Document Stats
            </h2>
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label="Hide document stats"
              aria-expanded
              onClick={() => onCollapsedChange(true)}
            >
              <ChevronLeft className="max-md:rotate-90" />
            </Button>
          </div>
          <StatsList editor={editor} />
          <Button
            variant={analyzing ? 'secondary' : 'outline'}
            size="sm"
            className="mt-3 w-full justify-start"
            disabled={!editor || !onAnalysisOpenChange || !AnalysisPanel}
            aria-expanded={analyzing}
            aria-controls={analyzing ? 'analysis-panel' : undefined}
            data-testid="analyze-button"
            onClick={() => onAnalysisOpenChange?.(!analysisOpen)}
          >
            <Gauge /> {analyzing ? 'Close analysis' : 'Analyze'}
          </Button>
        </div>
        {analyzing && AnalysisPanel && (
          // Below md the panel's two columns (stats, tools) sit side by side: the analysis takes the full width
          // under both.
          <div className="sm:order-last sm:col-span-2 md:order-none">
            <Suspense
              fallback={
                <p className="text-sm text-muted-foreground" role="status">
                  Loading analysis…
                </p>
              }
            >
              <AnalysisPanel editor={editor} />
            </Suspense>
          </div>
        )}
        <div>
          <h2 className="mb-3 flex items-center gap-2 text-sm font-semibold">
            <Sparkles className="size-4" aria-hidden /> AI Writing Tools
          </h2>
          <div className="grid gap-2">
            <Button
              variant="outline"
              size="sm"
              className="justify-start"
              disabled={!onSmartImprove}
              onClick={onSmartImprove}
            >
              <Wand2 /> Smart Improve
            </Button>
            <Button
              variant="outline"
              size="sm"
              className="justify-start"
              disabled={!onContinueWriting}
              onClick={onContinueWriting}
            >
              <FileText /> Continue Writing
            </Button>
            <Button
              variant="outline"
              size="sm"
              className="justify-start"
              disabled={!onSummarize}
              onClick={onSummarize}
            >
              <BarChart3 /> Summarize
            </Button>
          </div>
        </div>
      </div>
    </aside>
  );
}

function StatsList({ editor }: { editor: Editor | null }) {
  const stats = useEditorStats(editor);
  // A novel-length document is counted just after it opens: a moment of dashes first.
  const counting = '–';
  const rows = [
    { label: 'Words', value: stats ? stats.wordCount.toLocaleString() : counting },
    { label: 'Reading Time', value: stats ? `${stats.readingTime} min` : counting },
    { label: 'Characters', value: stats ? stats.charCount.toLocaleString() : counting },
  ];
  return (
    <dl className="space-y-2 text-sm" data-testid="document-stats" aria-busy={!stats}>
      {rows.map((row) => (
        <div key={row.label} className="flex justify-between">
          <dt className="text-muted-foreground">{row.label}</dt>
          <dd className="font-medium tabular-nums">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
