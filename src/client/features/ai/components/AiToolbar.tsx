import { Briefcase, Coffee, FileText, Loader2, PenLine, SpellCheck, Wand2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@client/components/ui/button';
import { useAiHealth } from '@client/features/settings';
import { providerLabel } from '../queries';
import type { AiController } from '../useAiActions';

function ToolbarAction(props: {
  label: string;
  icon: ReactNode;
  running: boolean;
  disabled: boolean;
  onRun: () => void;
  className?: string;
}) {
  return (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      className={props.className}
      disabled={props.disabled}
      // Keep the editor's selection: the button must not take focus on press.
      onMouseDown={(event) => event.preventDefault()}
      onClick={props.onRun}
      data-testid={`ai-toolbar-${props.label.toLowerCase()}`}
      title={props.label}
    >
      {props.running ? <Loader2 className="animate-spin" aria-hidden="true" /> : props.icon}
      {/* Named by its icon below 1536 px, so the editor's tools fit one row (the name stays for screen readers). */}
      <span className="sr-only 2xl:not-sr-only">{props.label}</span>
    </Button>
  );
}

/**
 * The top AI toolbar: Complete (the selection, or else from the cursor), Improve, Professional, Casual,
 * Grammar, Summarize (these need a selection).
 */
export function AiToolbar({ controller }: { controller: AiController }) {
  const { toolbar, busy, editor } = controller;
  const health = useAiHealth();
  const provider = providerLabel(health.data);
  const disabled = !editor;
  const busyKind = busy;
  return (
    <div
      role="toolbar"
      aria-label="AI tools"
      className="flex shrink-0 items-center gap-0.5"
      data-testid="ai-toolbar"
    >
      <ToolbarAction
        label="Complete"
        icon={<PenLine aria-hidden="true" />}
        running={busyKind === 'complete'}
        disabled={disabled}
        onRun={toolbar.complete}
      />
      <ToolbarAction
        label="Improve"
        icon={<Wand2 aria-hidden="true" />}
        running={busyKind === 'improve'}
        disabled={disabled}
        onRun={toolbar.improve}
      />
      <ToolbarAction
        label="Professional"
        icon={<Briefcase aria-hidden="true" />}
        running={false}
        disabled={disabled}
        onRun={toolbar.professional}
      />
      <ToolbarAction
        label="Casual"
        icon={<Coffee aria-hidden="true" />}
        running={false}
        disabled={disabled}
        onRun={toolbar.casual}
      />
      <ToolbarAction
        label="Grammar"
        icon={<SpellCheck aria-hidden="true" />}
        running={busyKind === 'grammar'}
        disabled={disabled}
        onRun={toolbar.grammar}
      />
      <ToolbarAction
        label="Summarize"
        icon={<FileText aria-hidden="true" />}
        running={busyKind === 'summarize'}
        disabled={disabled}
        onRun={toolbar.summarize}
      />
      <span
        className="ml-2 shrink-0 text-xs whitespace-nowrap text-muted-foreground"
        data-testid="ai-provider-label"
        title="AI provider"
      >
        AI provider: {provider}
      </span>
    </div>
  );
}
