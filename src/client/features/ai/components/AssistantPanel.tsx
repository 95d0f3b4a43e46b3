import { FileText, ListTree, Loader2, Sparkles, Wand2, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Switch } from '@client/components/ui/switch';
import { cn } from '@client/lib/utils';
import { setLiveGrammarEnabled, useLiveGrammarEnabled } from '../live-grammar-preference';
import { panelSelectTextMessage } from '../messages';
import { providerLabel, useAiHealth, useAiUsage } from '../queries';
import type { AiController } from '../useAiActions';

/** SPEC §2 AI Writing Assistant panel (bottom right): Generate Outline, Improve Writing, Summarize Text. */
export function AssistantPanel({ controller }: { controller: AiController }) {
  const { assistantOpen, setAssistantOpen, busy } = controller;
  const [topic, setTopic] = useState('');
  const [askTopic, setAskTopic] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const health = useAiHealth();
  const usage = useAiUsage(assistantOpen);
  const liveGrammar = useLiveGrammarEnabled();
  if (!assistantOpen) return null;
  const provider = providerLabel(health.data);
  const unconfigured = health.data && provider === 'None';

  return (
    <aside
      aria-label="AI Writing Assistant"
      data-testid="ai-assistant-panel"
      className={cn(
        'fixed right-4 bottom-4 z-40 w-[min(20rem,calc(100%-2rem))] rounded-xl border bg-popover p-4 text-popover-foreground shadow-2xl',
        // Below 1280 px the suggestion card and this panel share the bottom of the screen: the card (with its
        // Accept button) wins until it is answered, then the panel is back.
        controller.suggestion && 'max-xl:hidden',
      )}
    >
      <header className="mb-3 flex items-center gap-2">
        <Sparkles className="size-4 text-primary" aria-hidden="true" />
        <h2 className="text-sm font-semibold">AI Writing Assistant</h2>
        <Button
          type="button"
          variant="ghost"
          size="icon-sm"
          className="ml-auto"
          aria-label="Close AI Writing Assistant"
          onClick={() => setAssistantOpen(false)}
        >
          <X aria-hidden="true" />
        </Button>
      </header>
      {unconfigured && (
        <p className="mb-3 rounded-md bg-muted p-2 text-xs text-muted-foreground" role="note">
          AI is not configured on this server. Grammar and analysis still work offline; ask the administrator
          to set OPENAI_API_KEY (or OPENAI_BASE_URL) or ANTHROPIC_API_KEY.
        </p>
      )}
      <div className="grid gap-2">
        {askTopic ? (
          <form
            className="flex gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              if (!topic.trim()) return;
              controller.generateOutline(topic);
              setAskTopic(false);
              setTopic('');
            }}
          >
            <Input
              autoFocus
              aria-label="Outline topic"
              placeholder="What is the document about?"
              value={topic}
              onChange={(event) => setTopic(event.target.value)}
            />
            <Button type="submit" size="sm" disabled={!topic.trim()}>
              Go
            </Button>
          </form>
        ) : (
          <Button
            type="button"
            variant="outline"
            className="justify-start"
            onClick={() => {
              setAlert(null);
              setAskTopic(true);
            }}
          >
            {busy === 'outline' ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <ListTree aria-hidden="true" />
            )}
            Generate Outline
          </Button>
        )}
        <Button
          type="button"
          variant="outline"
          className="justify-start"
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => setAlert(controller.improveFromPanel() ? null : panelSelectTextMessage('improve'))}
        >
          {busy === 'improve' ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <Wand2 aria-hidden="true" />
          )}
          Improve Writing
        </Button>
        <Button
          type="button"
          variant="outline"
          className="justify-start"
          onMouseDown={(event) => event.preventDefault()}
          onClick={() =>
            setAlert(controller.summarizeFromPanel() ? null : panelSelectTextMessage('summarize'))
          }
        >
          {busy === 'summarize' ? (
            <Loader2 className="animate-spin" aria-hidden="true" />
          ) : (
            <FileText aria-hidden="true" />
          )}
          Summarize Text
        </Button>
      </div>
      <label className="mt-3 flex items-center justify-between gap-2 text-sm">
        <span>Live grammar check</span>
        <Switch
          checked={liveGrammar}
          onCheckedChange={setLiveGrammarEnabled}
          aria-label="Live grammar check"
          data-testid="live-grammar-switch"
        />
      </label>
      {alert && (
        <p role="alert" className="mt-3 text-sm text-destructive">
          {alert}
        </p>
      )}
      <footer className="mt-3 flex justify-between text-xs text-muted-foreground">
        <span data-testid="ai-assistant-provider">Provider: {provider}</span>
        {usage.data && (
          <span title="AI tokens used this month">
            {usage.data.used.toLocaleString()} / {usage.data.limit.toLocaleString()} tokens
          </span>
        )}
      </footer>
    </aside>
  );
}
