import { Briefcase, Coffee, FileText, Loader2, PenLine, SpellCheck, Wand2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@client/components/ui/button';
import { providerLabel, useAiHealth } from '../queries';
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
    >
      {props.running ? <Loader2 className="animate-spin" aria-hidden="true" /> : props.icon}
      <span>{props.label}</span>
    </Button>
  );
}

/** SPEC §2 top AI toolbar: Complete, Improve, Professional, Casual, Grammar, Summarize (each needs a selection). */
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
      className="flex flex-wrap items-center gap-0.5 border-t px-3 py-1 sm:px-4"
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
        // Below 768 px one Improve is enough: the floating toolbar shows it whenever text is selected.
        className="max-md:hidden"
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
        className="ml-auto text-xs text-muted-foreground"
        data-testid="ai-provider-label"
        title="AI provider"
      >
        AI provider: {provider}
      </span>
    </div>
  );
}
