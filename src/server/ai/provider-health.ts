import type { AiProvider, ProviderObserver, ProviderSpec } from './providers';
import { ANTHROPIC_API_URL, OPENAI_API_URL } from './providers';

/**
 * Whether each provider answered recently. Every real call reports its outcome here; GET /api/ai/health
 * probes (a free model listing, never a generation) only the providers not heard from within
 * REACHABILITY_WINDOW_MS, so polling the health route costs each provider at most one request a minute.
 */
export const REACHABILITY_WINDOW_MS = 60_000;
export const PROBE_TIMEOUT_MS = 3_000;

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

/** A GET on the provider's model list: authenticated, free, and proof that it answers. */
export async function probeProvider(
  spec: ProviderSpec,
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
    const response = await fetch(`${base}/models`, { headers, signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    const latencyMs = Math.round(performance.now() - started);
    // 404: the server answered but lists no models (some OpenAI-compatible servers); it is up.
    if (response.ok || response.status === 404) return { ok: true, latencyMs, error: null };
    return { ok: false, latencyMs, error: `HTTP ${response.status}` };
  } catch (error) {
    const latencyMs = Math.round(performance.now() - started);
    const name = error instanceof Error ? error.name : '';
    const detail =
      name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : error instanceof Error
          ? ((error.cause as Error | undefined)?.message ?? error.message)
          : String(error);
    return { ok: false, latencyMs, error: detail };
  }
}

export class ProviderHealth implements ProviderObserver {
  private readonly states = new Map<string, State>();
  private readonly probes = new Map<string, Promise<void>>();

  constructor(private readonly now: () => number = Date.now) {}

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

  /** Probes every provider not checked within the window (concurrent callers share one probe each). */
  async refresh(specs: ProviderSpec[]): Promise<void> {
    await Promise.all(
      specs.map((spec) => {
        const state = this.states.get(spec.instanceId);
        if (state && this.now() - state.checkedAt < REACHABILITY_WINDOW_MS) return undefined;
        let probe = this.probes.get(spec.instanceId);
        if (!probe) {
          probe = probeProvider(spec)
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
