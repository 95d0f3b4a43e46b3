import type { FastifyBaseLogger } from 'fastify';
import type { AiProviderRegistry } from './ai/provider-registry';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { DocumentWriteHooks } from './documents/service';
import type { Mailer } from './mail/mailer';

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
  /** Areas that must see REST writes to documents push hooks here (documents/service.ts). */
  documentHooks: DocumentWriteHooks[];
}
