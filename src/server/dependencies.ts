import type { FastifyBaseLogger } from 'fastify';
import type { AiProviderRegistry } from './ai';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { DocumentCreationCheck, DocumentEvents, DocumentWriter } from './documents';
import type { Mailer } from './mail';
import type { ServerMetrics } from './metrics';

/**
 * The infrastructure of a running server, built once by buildApp (app.ts) and reachable as `app.deps`.
 * Every feature service takes the slice it needs as `Pick<ServerDependencies, …>` (plus what is particular
 * to one call, such as the user), so a service's signature says which infrastructure it touches and a test
 * builds exactly that. Stripe's client is made on first use from `config` (billing/stripe.ts).
 */
export interface ServerDependencies {
  config: Config;
  database: Database;
  /** `database.db`: the query builder every repository uses. */
  db: Db;
  log: FastifyBaseLogger;
  mailer: Mailer;
  /** The live AI providers (environment + AI settings), re-read on every change. */
  aiProviders: AiProviderRegistry;
  /** Whether a user may own one more document: billing's plan limits, asked by documents on every create. */
  documentCreationCheck: DocumentCreationCheck;
  /** The one writer of documents' content and title (documents/writer.ts). */
  documentWriter: DocumentWriter;
  /** What happens to documents (created, content or title changed, access changed, deleted...): subscribe here. */
  documentEvents: DocumentEvents;
  /** The server's Prometheus series (served at /metrics when METRICS_TOKEN is set): record through it. */
  metrics: ServerMetrics;
}
