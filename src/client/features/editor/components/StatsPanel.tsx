import { BarChart3, ChevronLeft, ChevronRight, FileText, Sparkles, Wand2 } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import type { Editor } from '@tiptap/core';
import { useEditorStats } from '../hooks/useEditorStats';

export interface StatsPanelProps {
  editor: Editor | null;
  collapsed: boolean;
  onCollapsedChange: (collapsed: boolean) => void;
  /** AI Writing Tools (features/ai). Smart Improve opens the assistant; a missing action disables its button. */
  onSmartImprove?: () => void;
  onContinueWriting?: () => void;
  onSummarize?: () => void;
}

/** SPEC §2 collapsible left panel 'Document Stats' with the AI Writing Tools. */
export function StatsPanel(props: StatsPanelProps) {
  const { editor, collapsed, onCollapsedChange, onSmartImprove, onContinueWriting, onSummarize } = props;
  if (collapsed) {
    return (
      <aside className="hidden w-10 shrink-0 border-r pt-3 md:flex md:justify-center">
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Show document stats"
          aria-expanded={false}
          onClick={() => onCollapsedChange(false)}
        >
          <ChevronRight />
        </Button>
      </aside>
    );
  }
  return (
    <aside className="hidden w-64 shrink-0 border-r bg-muted/30 md:block" aria-label="Document Stats">
      <div className="sticky top-32 space-y-6 p-4">
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
              <ChevronLeft />
            </Button>
          </div>
          <StatsList editor={editor} />
        </div>
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
  const rows = [
    { label: 'Words', value: stats.wordCount.toLocaleString() },
    { label: 'Reading Time', value: `${stats.readingTime} min` },
    { label: 'Characters', value: stats.charCount.toLocaleString() },
  ];
  return (
    <dl className="space-y-2 text-sm" data-testid="document-stats">
      {rows.map((row) => (
        <div key={row.label} className="flex justify-between">
          <dt className="text-muted-foreground">{row.label}</dt>
          <dd className="font-medium tabular-nums">{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}
