import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { AiAllowanceInput, AiProviderView } from '../../shared/schemas/admin-ai';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { DetectedLocalServer } from '../../shared/schemas/admin-ai';
import { OutboundClient, outboundPolicyFromConfig, type OutboundPolicy } from '../outbound';
import { detectLocalServers, localCandidatesFrom, type LocalCandidate } from './local-detection';
import { HEALTH_PROBE_INTERVAL_MS, ProviderHealth, probeProvider } from './provider-health';
import { listProviderSettings, readAllowance } from './provider-settings';
import {
  AiProviderChain,
  buildProvider,
  envProviderSpecs,
  type AiCallRecorder,
  type AiProvider,
  type ProviderSpec,
} from './providers';
import { SecretBox, SecretBoxError, encryptionSecret } from '../secret-box';

/** The channel of migration 0011_ai_settings. */
const AI_SETTINGS_CHANNEL = 'qw_ai_settings_changed';
const RELISTEN_DELAY_MS = 1_000;
/** Replaced providers keep their connections this long, for answers still streaming from them. */
const RETIRE_AFTER_MS = 120_000;

export interface RegistryEntry {
  spec: ProviderSpec;
  source: 'env' | 'settings';
  enabled: boolean;
  hasKey: boolean;
  /** Set when the stored key cannot be opened (another instance's ENCRYPTION_KEY). */
  problem: string | null;
  provider: AiProvider | undefined;
}

/**
 * The live set of AI providers: the environment's (read-only, built once) and those configured in the app,
 * re-read after every change. In-app providers are tried first, in their configured order, then the
 * environment's in AI_PROVIDER_ORDER. On PostgreSQL every instance LISTENs for the change notification of
 * migration 0011, so a change made on one instance reaches the next request on all of them; the embedded
 * database has a single process, which re-reads right after its own write.
 */
export class AiProviderRegistry {
  readonly health: ProviderHealth;
  readonly box: SecretBox;
  /**
   * Where providers may connect: OUTBOUND_ALLOWED_HOSTS plus the addresses the operator put in the
   * environment (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, the AI_LOCAL_SERVERS candidates), each on its port.
   */
  readonly policy: OutboundPolicy;
  /** Health probes and local detection. */
  private readonly outbound: OutboundClient;
  private probeTimer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | undefined;
  /** Loopback addresses probed for local model servers (AI_LOCAL_SERVERS). */
  localCandidates: LocalCandidate[];
  /** What the last detection found (at start when no provider is configured, and on "Detect"). */
  detected: DetectedLocalServer[] = [];
  private entries: RegistryEntry[] = [];
  private chainNow: AiProviderChain;
  private allowanceNow: AiAllowanceInput = { monthly_tokens_per_user: null, admins_unlimited: true };
  private readonly envEntries: RegistryEntry[];
  private reloading: Promise<void> | undefined;
  private reloadAgain = false;
  private listener: pg.Client | undefined;
  private closed = false;
  private relistenTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: Config,
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    /** Counts each provider call's outcome (the server's metrics). */
    private readonly calls?: AiCallRecorder,
  ) {
    this.box = new SecretBox(encryptionSecret(config.DATA_DIR, config.ENCRYPTION_KEY), 'ai-provider-keys');
    this.localCandidates = localCandidatesFrom(config.AI_LOCAL_SERVERS);
    this.policy = outboundPolicyFromConfig(config, [
      config.OPENAI_BASE_URL,
      config.ANTHROPIC_BASE_URL,
      ...this.localCandidates.map((candidate) => candidate.baseUrl),
    ]);
    this.outbound = new OutboundClient(this.policy);
    this.health = new ProviderHealth((spec) => probeProvider(spec, this.outbound));
    this.envEntries = envProviderSpecs(config).map((spec) => ({
      spec,
      source: 'env' as const,
      enabled: true,
      hasKey: Boolean(spec.apiKey),
      problem: null,
      provider: buildProvider(spec, this.policy),
    }));
    this.entries = this.envEntries;
    this.chainNow = this.chainOf(this.entries);
  }

  private chainOf(entries: RegistryEntry[]): AiProviderChain {
    const providers = entries.filter((e) => e.enabled && e.provider).map((e) => e.provider!);
    return new AiProviderChain(providers, this.health, this.log, this.calls);
  }

  /** The providers to use for a request that starts now. */
  get chain(): AiProviderChain {
    return this.chainNow;
  }

  get allowance(): AiAllowanceInput {
    return this.allowanceNow;
  }

  find(id: string): RegistryEntry | undefined {
    return this.entries.find((e) => e.spec.instanceId === id);
  }

  /** What the admin page shows: never a key, only whether one is set. */
  views(): AiProviderView[] {
    return this.entries.map((e) => {
      const status = this.health.status(e.spec.instanceId);
      return {
        id: e.spec.instanceId,
        kind: e.spec.kind,
        base_url: e.spec.baseUrl ?? null,
        model: e.spec.model,
        enabled: e.enabled,
        has_key: e.hasKey,
        source: e.source,
        reachable: status.reachable,
        latency_ms: status.latency_ms,
        checked_at: status.checked_at,
        last_error: e.problem ?? status.error,
      };
    });
  }

  /** Specs of the providers in use (for health probes). */
  activeSpecs(): ProviderSpec[] {
    return this.entries.filter((e) => e.enabled && e.provider).map((e) => e.spec);
  }

  /** Re-reads the in-app settings; concurrent calls share one read and a change meanwhile reads again. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.reloadAgain = false;
        await this.readSettings();
      } while (this.reloadAgain && !this.closed);
    })().finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  private async readSettings(): Promise<void> {
    const [rows, allowance] = await Promise.all([
      listProviderSettings(this.database.db),
      readAllowance(this.database.db),
    ]);
    const previous = new Map(
      this.entries.filter((e) => e.source === 'settings').map((e) => [e.spec.instanceId, e]),
    );
    const fresh: RegistryEntry[] = rows.map((row) => {
      let apiKey: string | undefined;
      let problem: string | null = null;
      if (row.apiKeySealed) {
        try {
          apiKey = this.box.open(row.apiKeySealed);
        } catch (error) {
          problem = error instanceof SecretBoxError ? error.message : 'the stored key cannot be read';
          this.log.warn({ provider: row.id }, `AI provider key unreadable: ${problem}`);
        }
      }
      const spec: ProviderSpec = {
        instanceId: row.id,
        kind: row.kind,
        baseUrl: row.baseUrl ?? undefined,
        apiKey,
        model: row.model,
      };
      const old = previous.get(row.id);
      const unchanged =
        old &&
        old.spec.kind === spec.kind &&
        old.spec.baseUrl === spec.baseUrl &&
        old.spec.apiKey === spec.apiKey &&
        old.spec.model === spec.model;
      if (unchanged) previous.delete(row.id);
      else if (old) this.health.forget(row.id);
      return {
        spec,
        source: 'settings' as const,
        enabled: row.enabled,
        hasKey: Boolean(row.apiKeySealed),
        problem,
        provider: unchanged ? old.provider : problem ? undefined : buildProvider(spec, this.policy),
      };
    });
    this.entries = [...fresh, ...this.envEntries];
    this.chainNow = this.chainOf(this.entries);
    this.allowanceNow = allowance;
    for (const retired of previous.values()) {
      this.health.forget(retired.spec.instanceId);
      const timer = setTimeout(() => void retired.provider?.close?.(), RETIRE_AFTER_MS);
      timer.unref();
    }
  }

  /** First read, then (PostgreSQL) listening for changes made by other instances and the admin command. */
  async start(): Promise<void> {
    await this.reload();
    if (this.database.kind === 'postgres' && this.config.DATABASE_URL) await this.listen();
    // In the background: the setup card and the AI settings offer what is found, one click to use it.
    if (!this.chain.available && this.localCandidates.length > 0) void this.detect();
    void this.probeHealth();
    this.probeTimer = setInterval(() => void this.probeHealth(), HEALTH_PROBE_INTERVAL_MS);
    this.probeTimer.unref();
  }

  /**
   * Probes the providers in use that were not heard from within the probe interval (on the schedule, and
   * when the admin saves). Never fails; a probe already under way is shared.
   */
  probeHealth(): Promise<void> {
    this.probing ??= this.health
      .refresh(this.activeSpecs())
      .catch((error: unknown) => this.log.warn({ err: error }, 'AI provider health probe failed'))
      .finally(() => {
        this.probing = undefined;
      });
    return this.probing;
  }

  async detect(): Promise<DetectedLocalServer[]> {
    this.detected = await detectLocalServers(this.localCandidates, this.outbound);
    if (this.detected.length > 0)
      this.log.info(
        { servers: this.detected.map((d) => `${d.name} ${d.base_url}`) },
        'local AI servers found; an admin can use them in Account settings → AI',
      );
    return this.detected;
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.config.DATABASE_URL });
    const retry = () => {
      if (this.closed || this.listener !== client) return;
      this.listener = undefined;
      client.end().catch(() => {});
      this.relistenTimer = setTimeout(() => {
        // Changes may have been missed while disconnected: read again once listening.
        void this.listen()
          .then(() => this.reload())
          .catch((error: unknown) => this.log.warn({ err: error }, 'AI settings listener failed'));
      }, RELISTEN_DELAY_MS);
      this.relistenTimer.unref();
    };
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'AI settings listener lost its connection');
      retry();
    });
    client.on('end', retry);
    client.on('notification', (message) => {
      if (message.channel !== AI_SETTINGS_CHANNEL) return;
      this.reload().catch((error: unknown) => this.log.error({ err: error }, 'AI settings reload failed'));
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${AI_SETTINGS_CHANNEL}`);
    } catch (error) {
      this.log.warn({ err: error }, 'AI settings listener could not connect');
      retry();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.relistenTimer);
    clearInterval(this.probeTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => {});
    await Promise.all([...this.entries.map((e) => e.provider?.close?.()), this.outbound.close()]);
  }
}
