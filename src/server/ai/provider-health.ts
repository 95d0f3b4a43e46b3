import type { OutboundClient } from '../outbound';
import type { AiProvider, ProviderObserver, ProviderSpec } from './providers';
import { ANTHROPIC_API_URL, OPENAI_API_URL, providerFailureMessage } from './providers';

/**
 * Whether each provider answered recently. Every real call reports its outcome here; a scheduled probe (a
 * free model listing, never a generation) asks the providers not heard from within HEALTH_PROBE_INTERVAL_MS,
 * every HEALTH_PROBE_INTERVAL_MS, and the admin's save and Test ask at once. GET /api/ai/health only reads
 * what is known: an anonymous request never makes the server call out.
 */
export const HEALTH_PROBE_INTERVAL_MS = 60_000;
const PROBE_TIMEOUT_MS = 3_000;
/** A provider counts as reachable this long after its last answer: two probe rounds, so one late probe does
 *  not make it flicker. */
const REACHABILITY_WINDOW_MS = 2 * HEALTH_PROBE_INTERVAL_MS + PROBE_TIMEOUT_MS;

export interface ProviderReachability {
  reachable: boolean;
  latency_ms: number | null;
  checked_at: string | null;
  /** Why the last attempt failed: for the server log and the admin page only. */
  error: string | null;
}

interface State {
  reachable: boolean;
  latencyMs: number | null;
  checkedAt: number;
  error: string | null;
}

/** A GET on the provider's model list, through the outbound guard: authenticated, free, proof that it answers. */
export async function probeProvider(
  spec: ProviderSpec,
  outbound: OutboundClient,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<{ ok: boolean; latencyMs: number; error: string | null }> {
  const started = performance.now();
  const base = (spec.baseUrl ?? (spec.kind === 'anthropic' ? ANTHROPIC_API_URL : OPENAI_API_URL)).replace(
    /\/$/,
    '',
  );
  const headers: Record<string, string> =
    spec.kind === 'anthropic'
      ? { 'x-api-key': spec.apiKey ?? '', 'anthropic-version': '2023-06-01' }
      : spec.apiKey
        ? { authorization: `Bearer ${spec.apiKey}` }
        : {};
  try {
    const response = await outbound.fetch(`${base}/models`, { headers, timeoutMs });
    await response.body?.cancel();
    const latencyMs = Math.round(performance.now() - started);
    // 404: the server answered but lists no models (some OpenAI-compatible servers); it is up.
    if (response.ok || response.status === 404) return { ok: true, latencyMs, error: null };
    return { ok: false, latencyMs, error: `HTTP ${response.status}` };
  } catch (error) {
    // The admin page shows this: a fixed sentence, whatever the connection did.
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      error: providerFailureMessage(error),
    };
  }
}

type Probe = (spec: ProviderSpec) => ReturnType<typeof probeProvider>;

export class ProviderHealth implements ProviderObserver {
  private readonly states = new Map<string, State>();
  private readonly probes = new Map<string, Promise<void>>();

  constructor(
    private readonly probe: Probe,
    private readonly now: () => number = Date.now,
  ) {}

  succeeded(provider: Pick<AiProvider, 'instanceId'>, latencyMs: number): void {
    this.states.set(provider.instanceId, {
      reachable: true,
      latencyMs: Math.round(latencyMs),
      checkedAt: this.now(),
      error: null,
    });
  }

  failed(provider: Pick<AiProvider, 'instanceId'>, detail: string): void {
    const previous = this.states.get(provider.instanceId);
    this.states.set(provider.instanceId, {
      reachable: false,
      latencyMs: previous?.latencyMs ?? null,
      checkedAt: this.now(),
      error: detail,
    });
  }

  status(instanceId: string): ProviderReachability {
    const state = this.states.get(instanceId);
    if (!state) return { reachable: false, latency_ms: null, checked_at: null, error: null };
    return {
      reachable: state.reachable && this.now() - state.checkedAt <= REACHABILITY_WINDOW_MS,
      latency_ms: state.latencyMs,
      checked_at: new Date(state.checkedAt).toISOString(),
      error: state.error,
    };
  }

  /** Probes every provider not heard from within the interval (concurrent callers share one probe each). */
  async refresh(specs: ProviderSpec[]): Promise<void> {
    await Promise.all(
      specs.map((spec) => {
        const state = this.states.get(spec.instanceId);
        if (state && this.now() - state.checkedAt < HEALTH_PROBE_INTERVAL_MS) return undefined;
        let probe = this.probes.get(spec.instanceId);
        if (!probe) {
          probe = this.probe(spec)
            .then((result) => {
              if (result.ok) this.succeeded(spec, result.latencyMs);
              else this.failed(spec, result.error ?? 'unreachable');
            })
            .finally(() => this.probes.delete(spec.instanceId));
          this.probes.set(spec.instanceId, probe);
        }
        return probe;
      }),
    );
  }

  forget(instanceId: string): void {
    this.states.delete(instanceId);
  }
}
