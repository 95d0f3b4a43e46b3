import { FileText, ListTree, Loader2, Sparkles, Wand2, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Switch } from '@client/components/ui/switch';
import { cn } from '@client/lib/utils';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import {
  aiSettingsOpener,
  useUpdateUserSettings,
  useUserSettings,
  useAiHealth,
} from '@client/features/settings';
import { GRAMMAR_DIALECT_PREFERENCES, type GrammarDialect } from '@shared/settings-defaults';
import type { AiUsageSummary } from '@shared/schemas/ai';
import { setLiveGrammarEnabled, useLiveGrammarEnabled } from '../live-grammar-preference';
import {
  AI_NOT_SET_UP_FOR_ADMIN,
  AI_NOT_SET_UP_FOR_MEMBER,
  AI_NOT_SET_UP_TITLE,
  OPEN_AI_SETTINGS,
  panelSelectTextMessage,
} from '../messages';
import { providerLabel, useAiUsage } from '../queries';
import type { AiController } from '../useAiActions';

const DIALECT_NAMES: Record<GrammarDialect, string> = {
  american: 'American English',
  british: 'British English',
  canadian: 'Canadian English',
  australian: 'Australian English',
};

/** The writer's AI tokens as the server counts them: unlimited for an admin, else used of the allowance. */
function allowanceText(usage: AiUsageSummary): string {
  if (usage.unlimited) return 'Unlimited AI tokens';
  return `${usage.used.toLocaleString()} / ${usage.limit.toLocaleString()} tokens`;
}

/** The AI Writing Assistant panel (bottom right): Generate Outline, Improve Writing, Summarize Text. */
export function AssistantPanel({ controller }: { controller: AiController }) {
  const { assistantOpen, setAssistantOpen, busy } = controller;
  const [topic, setTopic] = useState('');
  const [askTopic, setAskTopic] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const health = useAiHealth();
  const usage = useAiUsage(assistantOpen);
  const liveGrammar = useLiveGrammarEnabled();
  const { preferences } = useUserSettings();
  const updateSettings = useUpdateUserSettings();
  if (!assistantOpen) return null;
  const openAiSettings = aiSettingsOpener();
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
        <div className="mb-3 grid gap-2 rounded-md bg-muted p-2 text-xs text-muted-foreground" role="note">
          <p>
            <span className="font-medium text-foreground">{AI_NOT_SET_UP_TITLE}.</span>{' '}
            {openAiSettings ? AI_NOT_SET_UP_FOR_ADMIN : AI_NOT_SET_UP_FOR_MEMBER} Grammar and analysis work
            without it.
          </p>
          {openAiSettings ? (
            <Button
              type="button"
              size="sm"
              variant="outline"
              className="justify-self-start"
              onClick={openAiSettings}
            >
              {OPEN_AI_SETTINGS}
            </Button>
          ) : null}
        </div>
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
      <div className="mt-2 flex items-center justify-between gap-2 text-sm">
        <span id="grammar-dialect-label">Grammar English</span>
        <Select
          value={preferences.grammarDialect}
          onValueChange={(dialect) =>
            updateSettings.mutate({ preferences: { grammarDialect: dialect as GrammarDialect } })
          }
        >
          <SelectTrigger size="sm" aria-labelledby="grammar-dialect-label" data-testid="grammar-dialect">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {GRAMMAR_DIALECT_PREFERENCES.map((dialect) => (
              <SelectItem key={dialect} value={dialect}>
                {DIALECT_NAMES[dialect]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {alert && (
        <p role="alert" className="mt-3 text-sm text-destructive">
          {alert}
        </p>
      )}
      <footer className="mt-3 flex justify-between text-xs text-muted-foreground">
        <span data-testid="ai-assistant-provider">Provider: {provider}</span>
        {usage.data && (
          <span title="AI tokens used this month" data-testid="ai-allowance">
            {allowanceText(usage.data)}
          </span>
        )}
      </footer>
    </aside>
  );
}
