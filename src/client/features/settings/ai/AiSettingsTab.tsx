import {
  ArrowDownIcon,
  ArrowUpIcon,
  Loader2Icon,
  PlugZapIcon,
  PlusIcon,
  RadarIcon,
  Trash2Icon,
} from 'lucide-react';
import { useId, useState } from 'react';
import type { AiProviderKind, AiProviderTestResult, DetectedLocalServer } from '@shared/schemas/admin-ai';
import { Badge } from '@client/components/ui/badge';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@client/components/ui/select';
import { Separator } from '@client/components/ui/separator';
import { Skeleton } from '@client/components/ui/skeleton';
import { Switch } from '@client/components/ui/switch';
import { toast } from '@client/components/ui/use-toast';
import { errorMessage } from '@client/lib/api';
import {
  adminAiApi,
  useAdminAiSettings,
  useSaveAiSettings,
  withLocalServer,
  type AiSettingsPage,
} from './api';

/** A provider row being edited. `apiKey` is what the admin typed; empty keeps the stored key. */
interface DraftProvider {
  key: string;
  id: string | undefined;
  source: 'env' | 'settings';
  kind: AiProviderKind;
  baseUrl: string;
  model: string;
  enabled: boolean;
  hasKey: boolean;
  apiKey: string;
  removeKey: boolean;
  /** As last seen by the server (saved providers only). */
  status: {
    reachable: boolean;
    latencyMs: number | null;
    checkedAt: string | null;
    lastError: string | null;
  } | null;
}

let draftCounter = 0;

function draftsOf(page: AiSettingsPage): DraftProvider[] {
  return page.providers.map((p) => ({
    key: p.id,
    id: p.id,
    source: p.source,
    kind: p.kind,
    baseUrl: p.base_url ?? '',
    model: p.model,
    enabled: p.enabled,
    hasKey: p.has_key,
    apiKey: '',
    removeKey: false,
    status: {
      reachable: p.reachable,
      latencyMs: p.latency_ms,
      checkedAt: p.checked_at,
      lastError: p.last_error,
    },
  }));
}

const KIND_LABEL: Record<AiProviderKind, string> = {
  'openai-compatible': 'OpenAI-compatible',
  anthropic: 'Anthropic',
};

/** "127.0.0.1:11434" for "http://127.0.0.1:11434/v1". */
function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** Account settings → AI (admins only): providers, their order, keys, Test, local detection, allowance. */
export function AiSettingsTab() {
  const query = useAdminAiSettings();
  if (query.isPending) return <Skeleton className="h-48 w-full" />;
  if (query.isError || !query.data)
    return <p className="text-sm text-destructive">The AI settings could not be loaded.</p>;
  return <AiSettingsForm key={query.dataUpdatedAt} page={query.data} />;
}

function AiSettingsForm({ page }: { page: AiSettingsPage }) {
  const save = useSaveAiSettings();
  const [drafts, setDrafts] = useState<DraftProvider[]>(() => draftsOf(page));
  const [dirty, setDirty] = useState(false);
  const [monthly, setMonthly] = useState(page.allowance.monthly_tokens_per_user?.toString() ?? '');
  const [adminsUnlimited, setAdminsUnlimited] = useState(page.allowance.admins_unlimited);
  const [results, setResults] = useState<Record<string, AiProviderTestResult | 'running'>>({});
  const [detected, setDetected] = useState<DetectedLocalServer[]>(page.detected);
  const [detecting, setDetecting] = useState(false);
  /** After a detection that found nothing: the addresses it asked. */
  const [noneFoundAt, setNoneFoundAt] = useState<string[] | null>(null);
  const monthlyId = useId();
  const unlimitedId = useId();

  const change = (next: DraftProvider[]) => {
    setDrafts(next);
    setDirty(true);
  };
  const update = (key: string, patch: Partial<DraftProvider>) =>
    change(drafts.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  const move = (index: number, by: number) => {
    const next = [...drafts];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    change(next);
  };
  // In-app providers are tried before the environment's, so they are listed (and added) above them.
  const ownCount = drafts.filter((d) => d.source === 'settings').length;
  const add = (kind: AiProviderKind) =>
    change([
      ...drafts.slice(0, ownCount),
      {
        key: `new-${++draftCounter}`,
        id: undefined,
        source: 'settings',
        kind,
        baseUrl: kind === 'openai-compatible' ? 'http://127.0.0.1:11434/v1' : '',
        model: '',
        enabled: true,
        hasKey: false,
        apiKey: '',
        removeKey: false,
        status: null,
      },
      ...drafts.slice(ownCount),
    ]);

  const onSave = () => {
    const limit = monthly.trim() === '' ? null : Number(monthly);
    if (limit !== null && (!Number.isInteger(limit) || limit < 0)) {
      toast({
        title: 'Update Failed',
        description: 'The allowance must be a whole number.',
        variant: 'destructive',
      });
      return;
    }
    save.mutate(
      {
        providers: drafts
          .filter((d) => d.source === 'settings')
          .map((d) => ({
            ...(d.id ? { id: d.id } : {}),
            kind: d.kind,
            base_url: d.baseUrl.trim() || null,
            model: d.model.trim(),
            enabled: d.enabled,
            ...(d.apiKey ? { api_key: d.apiKey } : d.removeKey ? { api_key: null } : {}),
          })),
        allowance: { monthly_tokens_per_user: limit, admins_unlimited: adminsUnlimited },
      },
      {
        onSuccess: () =>
          toast({ title: 'AI settings saved', description: 'They apply from the next request.' }),
        onError: (error) =>
          toast({ title: 'Update Failed', description: errorMessage(error), variant: 'destructive' }),
      },
    );
  };

  const onTest = async (id: string) => {
    setResults((r) => ({ ...r, [id]: 'running' }));
    try {
      const result = await adminAiApi.test(id);
      setResults((r) => ({ ...r, [id]: result }));
    } catch (error) {
      setResults((r) => ({
        ...r,
        [id]: { ok: false, latency_ms: 0, model: '', message: errorMessage(error) },
      }));
    }
  };

  const onDetect = async () => {
    setDetecting(true);
    try {
      const result = await adminAiApi.detect();
      setDetected(result.servers);
      setNoneFoundAt(result.servers.length === 0 ? (result.checked ?? []) : null);
    } catch (error) {
      toast({ title: 'Detection failed', description: errorMessage(error), variant: 'destructive' });
    } finally {
      setDetecting(false);
    }
  };

  const useLocal = (server: DetectedLocalServer, model: string) =>
    save.mutate(withLocalServer(page, server, model), {
      onSuccess: () =>
        toast({ title: 'AI settings saved', description: `${server.name} (${model}) is now used first.` }),
      onError: (error) =>
        toast({ title: 'Update Failed', description: errorMessage(error), variant: 'destructive' }),
    });

  return (
    <div className="grid max-h-[60vh] gap-4 overflow-y-auto pr-1" data-testid="ai-settings">
      <div className="grid gap-1">
        <h3 className="text-sm font-medium">Providers</h3>
        <p className="text-xs text-muted-foreground">
          Tried from top to bottom; when one does not answer, the next one is asked. Providers set through
          environment variables are shown read-only.
        </p>
      </div>
      {drafts.length === 0 ? (
        <p className="rounded-md border border-dashed p-3 text-sm text-muted-foreground">
          No AI provider yet. Add one, or detect a model server running on this machine.
        </p>
      ) : null}
      <ol className="grid gap-3">
        {drafts.map((d, index) => (
          <ProviderRow
            key={d.key}
            draft={d}
            first={index === 0}
            last={index === ownCount - 1}
            onChange={(patch) => update(d.key, patch)}
            onMove={(by) => move(index, by)}
            onRemove={() => change(drafts.filter((x) => x.key !== d.key))}
            onTest={d.id && !dirty ? () => void onTest(d.id!) : undefined}
            result={d.id ? results[d.id] : undefined}
          />
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => add('openai-compatible')}>
          <PlusIcon aria-hidden="true" />
          OpenAI-compatible
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={() => add('anthropic')}>
          <PlusIcon aria-hidden="true" />
          Anthropic
        </Button>
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => void onDetect()}
          disabled={detecting}
        >
          {detecting ? (
            <Loader2Icon className="animate-spin" aria-hidden="true" />
          ) : (
            <RadarIcon aria-hidden="true" />
          )}
          Detect local models
        </Button>
      </div>
      {noneFoundAt ? (
        <p className="rounded-md border border-dashed p-3 text-sm text-muted-foreground" role="status">
          {noneFoundAt.length > 0
            ? `No local model servers found at ${noneFoundAt.map(hostOf).join(', ')}.`
            : 'No local model servers found: detection is turned off on this server (AI_LOCAL_SERVERS).'}{' '}
          Start Ollama, LM Studio, llama.cpp or vLLM on this machine, then detect again.
        </p>
      ) : null}
      {detected.length > 0 ? (
        <div className="grid gap-2 rounded-md border p-3" data-testid="detected-servers">
          <p className="text-sm font-medium">Found on this machine</p>
          {detected.map((server) => (
            <DetectedServer key={server.base_url} server={server} onUse={useLocal} busy={save.isPending} />
          ))}
        </div>
      ) : null}
      <Separator />
      <div className="grid gap-3">
        <h3 className="text-sm font-medium">Monthly allowance</h3>
        {page.allowance.billing_enabled ? (
          <p className="text-xs text-muted-foreground">Billing is on: each plan's AI tokens apply instead.</p>
        ) : null}
        <div className="grid gap-2 sm:grid-cols-2">
          <div className="grid gap-1.5">
            <Label htmlFor={monthlyId}>AI tokens per member each month</Label>
            <Input
              id={monthlyId}
              inputMode="numeric"
              value={monthly}
              placeholder={`${page.allowance.default_monthly_tokens_per_user.toLocaleString('en-US')} (default)`}
              onChange={(e) => {
                setMonthly(e.target.value.replace(/[^\d]/g, ''));
                setDirty(true);
              }}
            />
          </div>
          <div className="flex items-center justify-between gap-3 pt-5">
            <Label htmlFor={unlimitedId}>Admins unlimited</Label>
            <Switch
              id={unlimitedId}
              checked={adminsUnlimited}
              onCheckedChange={(v) => {
                setAdminsUnlimited(v);
                setDirty(true);
              }}
            />
          </div>
        </div>
      </div>
      <div className="flex items-center justify-end gap-3">
        {dirty ? <span className="text-xs text-muted-foreground">Unsaved changes</span> : null}
        <Button type="button" onClick={onSave} disabled={save.isPending}>
          {save.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
          Save AI settings
        </Button>
      </div>
    </div>
  );
}

function ProviderRow({
  draft,
  first,
  last,
  onChange,
  onMove,
  onRemove,
  onTest,
  result,
}: {
  draft: DraftProvider;
  first: boolean;
  last: boolean;
  onChange(patch: Partial<DraftProvider>): void;
  onMove(by: number): void;
  onRemove(): void;
  onTest: (() => void) | undefined;
  result: AiProviderTestResult | 'running' | undefined;
}) {
  const id = useId();
  const readOnly = draft.source === 'env';
  const label = `${KIND_LABEL[draft.kind]} provider${draft.model ? ` ${draft.model}` : ''}`;
  return (
    <li className="grid gap-3 rounded-md border p-3" aria-label={label} data-testid="ai-provider">
      <div className="flex flex-wrap items-center gap-2">
        {readOnly ? (
          <span className="text-sm font-medium">{KIND_LABEL[draft.kind]}</span>
        ) : (
          <Select value={draft.kind} onValueChange={(v) => onChange({ kind: v as AiProviderKind })}>
            <SelectTrigger className="h-8 w-48" aria-label="Kind">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="openai-compatible">OpenAI-compatible</SelectItem>
              <SelectItem value="anthropic">Anthropic</SelectItem>
            </SelectContent>
          </Select>
        )}
        {readOnly ? <Badge variant="secondary">Environment</Badge> : null}
        <div className="ml-auto flex items-center gap-1">
          {readOnly ? null : (
            <>
              <Label htmlFor={`${id}-on`} className="text-xs text-muted-foreground">
                On
              </Label>
              <Switch
                id={`${id}-on`}
                checked={draft.enabled}
                onCheckedChange={(v) => onChange({ enabled: v })}
              />
            </>
          )}
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label="Move up"
            disabled={first}
            hidden={readOnly}
            onClick={() => onMove(-1)}
          >
            <ArrowUpIcon aria-hidden="true" />
          </Button>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label="Move down"
            disabled={last}
            hidden={readOnly}
            onClick={() => onMove(1)}
          >
            <ArrowDownIcon aria-hidden="true" />
          </Button>
          {readOnly ? null : (
            <Button type="button" variant="ghost" size="icon" aria-label="Remove provider" onClick={onRemove}>
              <Trash2Icon aria-hidden="true" />
            </Button>
          )}
        </div>
      </div>
      <div className="grid gap-2 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-url`}>Base URL{draft.kind === 'anthropic' ? ' (optional)' : ''}</Label>
          <Input
            id={`${id}-url`}
            value={draft.baseUrl}
            readOnly={readOnly}
            placeholder={
              draft.kind === 'anthropic' ? 'https://api.anthropic.com/v1' : 'https://api.openai.com/v1'
            }
            onChange={(e) => onChange({ baseUrl: e.target.value })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-model`}>Model</Label>
          <Input
            id={`${id}-model`}
            value={draft.model}
            readOnly={readOnly}
            placeholder={draft.kind === 'anthropic' ? 'claude-3-5-haiku-latest' : 'gpt-4o-mini or llama3.2'}
            onChange={(e) => onChange({ model: e.target.value })}
          />
        </div>
        {readOnly ? null : (
          <div className="grid gap-1.5 sm:col-span-2">
            <Label htmlFor={`${id}-key`}>API key</Label>
            <div className="flex gap-2">
              <Input
                id={`${id}-key`}
                type="password"
                autoComplete="off"
                value={draft.apiKey}
                placeholder={
                  draft.hasKey && !draft.removeKey
                    ? 'Saved; type a new key to replace it'
                    : 'Not needed for local servers'
                }
                onChange={(e) => onChange({ apiKey: e.target.value, removeKey: false })}
              />
              {draft.hasKey && !draft.removeKey ? (
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => onChange({ removeKey: true, apiKey: '' })}
                >
                  Remove key
                </Button>
              ) : null}
            </div>
          </div>
        )}
      </div>
      <ProviderStatus status={draft.status} />
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="button"
          variant="secondary"
          size="sm"
          onClick={onTest}
          disabled={!onTest || result === 'running'}
        >
          {result === 'running' ? (
            <Loader2Icon className="animate-spin" aria-hidden="true" />
          ) : (
            <PlugZapIcon aria-hidden="true" />
          )}
          Test
        </Button>
        {!onTest ? <span className="text-xs text-muted-foreground">Save to test.</span> : null}
        {result && result !== 'running' ? (
          <p
            role="status"
            data-testid="ai-test-result"
            className={
              result.ok ? 'text-sm text-emerald-700 dark:text-emerald-400' : 'text-sm text-destructive'
            }
          >
            {result.ok
              ? `Answered in ${result.latency_ms} ms: “${result.message}”`
              : `Failed: ${result.message}`}
          </p>
        ) : null}
      </div>
    </li>
  );
}

function DetectedServer({
  server,
  onUse,
  busy,
}: {
  server: DetectedLocalServer;
  onUse(server: DetectedLocalServer, model: string): void;
  busy: boolean;
}) {
  const [model, setModel] = useState(server.models[0] ?? '');
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium">{server.name}</span>
      <span className="text-xs text-muted-foreground">{server.base_url}</span>
      {server.models.length > 1 ? (
        <Select value={model} onValueChange={setModel}>
          <SelectTrigger className="h-8 w-48" aria-label={`Model of ${server.name}`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {server.models.map((m) => (
              <SelectItem key={m} value={m}>
                {m}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      ) : (
        <span>{model || 'no models pulled yet'}</span>
      )}
      <Button
        type="button"
        size="sm"
        className="ml-auto"
        disabled={!model || busy}
        onClick={() => onUse(server, model)}
      >
        Use {server.name}
      </Button>
    </div>
  );
}

function ProviderStatus({ status }: { status: DraftProvider['status'] }) {
  if (!status || (!status.checkedAt && !status.lastError)) return null;
  const when = status.checkedAt ? new Date(status.checkedAt).toLocaleTimeString() : null;
  // Older than a minute without an error: it answered then, and nothing has failed since.
  if (status.reachable || !status.lastError)
    return (
      <p className="text-xs text-muted-foreground" data-testid="ai-provider-status">
        Answered{status.latencyMs !== null ? ` in ${status.latencyMs} ms` : ''}
        {when ? ` at ${when}` : ''}.
      </p>
    );
  return (
    <p className="text-xs text-destructive" data-testid="ai-provider-status">
      {status.lastError ? `Last error${when ? ` (${when})` : ''}: ${status.lastError}` : 'Not reachable.'}
    </p>
  );
}
