import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How a call to one AI provider ended: answered, failed (the chain may try the next), or cancelled by the caller. */
export type AiCallOutcome = 'ok' | 'error' | 'cancelled';

/** Numbers read when Prometheus scrapes, never kept up to date in between. */
export interface CollaborationGauges {
  sockets(): number;
  documents(): number;
}

/** A PostgreSQL pool's connections (node-postgres's totalCount, idleCount, waitingCount). */
export interface PoolGauges {
  total: number;
  idle: number;
  waiting: number;
}

/** Something with ioredis's `status` ('ready' once connected). */
export interface RedisConnection {
  readonly status: string;
}

/** Seconds as Prometheus wants them, from a performance.now() start. */
export const secondsSince = (startedMs: number): number => (performance.now() - startedMs) / 1000;

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STORE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const CONVERSION_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The server's Prometheus series, on a registry of its own (not prom-client's global one: tests build many
 * apps in one process). Built once by buildApp as `deps.metrics`; features record through its methods and
 * never touch prom-client. Gauges whose truth lives elsewhere (sockets, pool, Redis) are read at scrape time
 * from the sources handed to the `watch…` methods.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route'>;
  private readonly storeBatchDocuments: Histogram;
  private readonly storeBatchDuration: Histogram;
  private readonly storeBatchFailures: Counter;
  private readonly aiCalls: Counter<'provider' | 'outcome'>;
  private readonly aiTokens: Counter<'provider' | 'kind'>;
  private readonly importDuration: Histogram<'format' | 'outcome'>;
  private readonly exportDuration: Histogram<'format'>;
  private readonly documentEvents: Counter<'type'>;
  private collaboration: CollaborationGauges | undefined;
  private pool: (() => PoolGauges) | undefined;
  private readonly redis = new Map<string, RedisConnection>();

  constructor(options: { defaultMetrics: boolean }) {
    const registers = [this.registry];
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry });

    this.httpRequests = new Counter({
      name: 'quillwright_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'quillwright_http_request_duration_seconds',
      help: 'Time from a request arriving to its response being sent, by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: HTTP_BUCKETS,
      registers,
    });

    const sockets: Gauge = new Gauge({
      name: 'quillwright_collab_sockets',
      help: 'Open collaboration sockets (an editor with several documents open on one socket counts once).',
      registers,
      collect: () => {
        if (this.collaboration) sockets.set(this.collaboration.sockets());
      },
    });
    const liveDocuments: Gauge = new Gauge({
      name: 'quillwright_live_documents',
      help: 'Documents held live in the collaboration server.',
      registers,
      collect: () => {
        if (this.collaboration) liveDocuments.set(this.collaboration.documents());
      },
    });

    this.storeBatchDocuments = new Histogram({
      name: 'quillwright_store_batch_documents',
      help: 'Live documents written per store statement.',
      buckets: [1, 2, 5, 10, 20, 50],
      registers,
    });
    this.storeBatchDuration = new Histogram({
      name: 'quillwright_store_batch_duration_seconds',
      help: 'Time one store statement of live documents took.',
      buckets: STORE_BUCKETS,
      registers,
    });
    this.storeBatchFailures = new Counter({
      name: 'quillwright_store_batch_failures_total',
      help: 'Store statements that failed (a batch is then retried one document at a time).',
      registers,
    });

    const pool: Gauge<'state'> = new Gauge({
      name: 'quillwright_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting clients). Absent with the embedded database.',
      labelNames: ['state'],
      registers,
      collect: () => {
        if (!this.pool) return;
        const now = this.pool();
        pool.set({ state: 'total' }, now.total);
        pool.set({ state: 'idle' }, now.idle);
        pool.set({ state: 'waiting' }, now.waiting);
      },
    });
    const redis: Gauge<'client'> = new Gauge({
      name: 'quillwright_redis_connected',
      help: 'Whether each Redis connection is ready (1) or not (0). Absent without REDIS_URL.',
      labelNames: ['client'],
      registers,
      collect: () => {
        for (const [client, connection] of this.redis) {
          redis.set({ client }, connection.status === 'ready' ? 1 : 0);
        }
      },
    });

    this.aiCalls = new Counter({
      name: 'quillwright_ai_calls_total',
      help: 'Calls to AI providers by provider family and outcome (one per provider tried).',
      labelNames: ['provider', 'outcome'],
      registers,
    });
    this.aiTokens = new Counter({
      name: 'quillwright_ai_tokens_total',
      help: 'AI tokens metered to writers, by provider family and kind (input, output).',
      labelNames: ['provider', 'kind'],
      registers,
    });
    this.importDuration = new Histogram({
      name: 'quillwright_import_duration_seconds',
      help: 'Time to convert an imported file, queue for a worker included, by format and outcome.',
      labelNames: ['format', 'outcome'],
      buckets: CONVERSION_BUCKETS,
      registers,
    });
    this.exportDuration = new Histogram({
      name: 'quillwright_export_duration_seconds',
      help: 'Time to render a document for download, by format.',
      labelNames: ['format'],
      buckets: CONVERSION_BUCKETS,
      registers,
    });
    this.documentEvents = new Counter({
      name: 'quillwright_document_events_total',
      help: 'Events on the documents event stream, by type.',
      labelNames: ['type'],
      registers,
    });
  }

  /** The collaboration server's sockets and live documents, read at each scrape. */
  watchCollaboration(source: CollaborationGauges): void {
    this.collaboration = source;
  }

  watchDatabasePool(source: () => PoolGauges): void {
    this.pool = source;
  }

  /** A Redis client, as `client` in quillwright_redis_connected. */
  watchRedis(client: string, connection: RedisConnection): void {
    this.redis.set(client, connection);
  }

  storeBatch(documents: number, seconds: number, ok: boolean): void {
    this.storeBatchDocuments.observe(documents);
    this.storeBatchDuration.observe(seconds);
    if (!ok) this.storeBatchFailures.inc();
  }

  aiCall(provider: string, outcome: AiCallOutcome): void {
    this.aiCalls.inc({ provider, outcome });
  }

  aiUsage(provider: string, usage: { inputTokens: number; outputTokens: number }): void {
    if (usage.inputTokens > 0) this.aiTokens.inc({ provider, kind: 'input' }, usage.inputTokens);
    if (usage.outputTokens > 0) this.aiTokens.inc({ provider, kind: 'output' }, usage.outputTokens);
  }

  imported(format: string, seconds: number, ok: boolean): void {
    this.importDuration.observe({ format, outcome: ok ? 'ok' : 'failed' }, seconds);
  }

  exported(format: string, seconds: number): void {
    this.exportDuration.observe({ format }, seconds);
  }

  documentEvent(type: string): void {
    this.documentEvents.inc({ type });
  }
}
