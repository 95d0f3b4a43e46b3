import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Config } from './config';
import type { Database } from './db/client';
import { AiProviderRegistry } from './ai';
import { planLimitCheck } from './billing';
import { registerCollaboration } from './collab';
import { AppError, badRequest, diskFullError } from './errors';
import type { ServerDependencies } from './dependencies';
import { DOCUMENT_EVENT_TYPES, DocumentEvents, DocumentWriter, registerTrashPurge } from './documents';
import { registerFolderTrashPurge } from './folders';
import { registerIdempotency } from './idempotency';
import { registerNotificationDigest } from './notifications';
import { registerImages } from './images';
import { registerWebhooks, type WebhookOptions } from './webhooks';
import { createMailer } from './mail';
import { recordHttpRequests, registerMetricsRoute, ServerMetrics } from './metrics';
import { parse as parseQueryString } from 'node:querystring';
import { stripNulDeep } from '../shared/text/nul';
import { findLoneSurrogate, mayHoldLoneSurrogate } from '../shared/text/surrogates';
import { EARLY_STATE_SCRIPT } from '../shared/editor-early-request';
import { FIRST_PAINT_SCRIPT } from '../shared/first-paint';
import { mcpRoutes } from './mcp';
import { oauthRoutes } from './oauth';
import { registerRoutes } from './routes';
import { registerVersions } from './versions';
import { registerGoals } from './goals';
import { encodeHtml } from './compressed-html';
import { renderIndexHtml, SHARED_PATH } from './spa';
import { isClientRoute } from '../shared/client-routes';
import { LOG_SAFETY_OPTIONS } from './runtime/logger';

const CLIENT_DIST_DIR = path.resolve('dist/client');
/** How long a browser keeps to HTTPS after seeing Strict-Transport-Security: a year. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export interface AppDeps {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** A logger built by the caller (main.ts: JSON or readable lines); wins over `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Webhook timings other than the product's (tests). */
  webhookOptions?: WebhookOptions;
}

/** Where the process is in its life: main.ts sets `draining` on SIGTERM/SIGINT, before the app closes. */
interface Lifecycle {
  draining: boolean;
}

interface RouteEntry {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    /** Every route the app serves (the authorization matrix and the fuzzer walk it). */
    routeList: RouteEntry[];
    /** The server's infrastructure, built here once; services take slices of it (dependencies.ts). */
    deps: ServerDependencies;
    /** `deps.aiProviders`. */
    aiProviders: AiProviderRegistry;
    lifecycle: Lifecycle;
  }
}

/** The headers helmet sets with `options`, read once by running it against a stand-in response. */
function helmetHeaders(options: Parameters<typeof helmet>[0]): [string, string][] {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string) => void headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
  };
  let ran = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => (ran = true));
  // Helmet calls next synchronously once every header is set; anything else would mean a per-request header.
  if (!ran) throw new Error('helmet did not finish synchronously');
  return [...headers];
}

/** Logger options with the server's redaction and safe serializers (runtime/logger.ts) under them. */
function withLogSafety(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (typeof logger !== 'object' || logger === null) return logger;
  return {
    ...logger,
    formatters: { ...logger.formatters, ...LOG_SAFETY_OPTIONS.formatters },
    serializers: { ...LOG_SAFETY_OPTIONS.serializers, ...logger.serializers },
  } as FastifyServerOptions['logger'];
}

/** Builds the HTTP app (API + web app). main.ts listens; tests call this with their own config. */
export async function buildApp({
  config,
  database,
  logger,
  loggerInstance,
  webhookOptions,
}: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    ...(loggerInstance
      ? { loggerInstance }
      : { logger: withLogSafety(logger ?? { level: config.LOG_LEVEL }) }),
    bodyLimit: config.MAX_BODY_BYTES,
    trustProxy: config.TRUST_PROXY,
    // Errors carry their own JSON body; Fastify's default would print stack traces in development.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // Fastify's own parser (node:querystring), minus NUL characters, which no query may carry to the database.
    routerOptions: {
      querystringParser: (query: string) =>
        (query.includes('%00') ? stripNulDeep(parseQueryString(query)) : parseQueryString(query)) as Record<
          string,
          unknown
        >,
    },
  });
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('lifecycle', { draining: false } satisfies Lifecycle);
  const routeList: RouteEntry[] = [];
  app.decorate('routeList', routeList);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routeList.push({ method, url: route.url });
    }
  });
  // Without METRICS_TOKEN nobody can read the series, so the per-request hooks and the default metrics'
  // collectors (an event-loop timer, a GC observer) are not installed; the rare events still count.
  const metrics = new ServerMetrics({ defaultMetrics: config.METRICS_TOKEN !== undefined });
  if (config.METRICS_TOKEN) recordHttpRequests(app, metrics);

  // Graceful shutdown: 'idle' closes the connections idle when close() starts, but a keep-alive connection
  // whose request was still in flight would stay open (and hold close() up to keepAliveTimeout, 72 s) after
  // its response. Responses sent while closing say `Connection: close`, so those connections end with them.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    app.lifecycle.draining = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  // Security headers on every response: helmet's, which are the same for every response (no nonces), so they are
  // worked out once and then set as a list. Running helmet's eleven middlewares per request took about 4 % of a
  // document GET's server CPU (bench:api); @fastify/helmet also rebuilt them per request (bench:ai).
  const securityHeaders = helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // Harper (live grammar) compiles its WebAssembly in a same-origin worker; this allows compiling WASM and
        // nothing else (no eval). Workers fall back to script-src, so 'self' already covers the worker script.
        // The two inline scripts, by their hashes: the first-paint script (theme, signed-in mark:
        // shared/first-paint.ts) and, on the editor's page, the early request of the document's state
        // (shared/editor-early-request.ts).
        scriptSrc: [
          "'self'",
          "'wasm-unsafe-eval'",
          `'sha256-${createHash('sha256').update(FIRST_PAINT_SCRIPT).digest('base64')}'`,
          `'sha256-${createHash('sha256').update(EARLY_STATE_SCRIPT).digest('base64')}'`,
        ],
        // The editor sets inline styles (font, colour, alignment).
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Sent below, over HTTPS only: a browser ignores it over HTTP, and a local or intranet install on plain
    // HTTP must not tell browsers to insist on HTTPS for its host (or, with includeSubDomains, its neighbours).
    strictTransportSecurity: false,
  });
  const strictTransportSecurity = `max-age=${HSTS_MAX_AGE_SECONDS}${config.HSTS_INCLUDE_SUBDOMAINS ? '; includeSubDomains' : ''}`;
  app.addHook('onRequest', (request, reply, done) => {
    // request.protocol is X-Forwarded-Proto's when TRUST_PROXY is set (TLS ends at the proxy).
    if (request.protocol === 'https')
      reply.raw.setHeader('strict-transport-security', strictTransportSecurity);
    for (const [name, value] of securityHeaders) reply.raw.setHeader(name, value);
    done();
  });
  // Only routes that opt in (config.rateLimit) are limited; see accounts/routes.ts and ai/rate-limits.ts. With
  // REDIS_URL the counters live in Redis, so a limit holds across every instance.
  const rateLimitRedis = config.REDIS_URL
    ? new (await import('ioredis')).default(config.REDIS_URL, {
        maxRetriesPerRequest: 3,
        connectTimeout: 2_000,
      })
    : undefined;
  if (rateLimitRedis) {
    rateLimitRedis.on('error', (error: Error) => app.log.warn({ err: error }, 'redis connection error'));
    app.addHook('onClose', async () => void (await rateLimitRedis.quit().catch(() => {})));
    metrics.watchRedis('rate_limit', rateLimitRedis);
  }
  await app.register(rateLimit, {
    global: false,
    ...(rateLimitRedis ? { redis: rateLimitRedis, nameSpace: `${config.REDIS_PREFIX}:rate-limit:` } : {}),
    // A Redis outage must not take the app down with it: requests pass unlimited meanwhile.
    skipOnError: true,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many requests, please try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      code: 'over_request_rate_limit',
    }),
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({ message: error.message, code: error.code, ...error.extra });
    }
    const diskFull = diskFullError(error);
    if (diskFull) {
      // Only the database's message: the query error carries the statement's parameters (the document).
      request.log.error({ error: diskFull }, 'request failed: the database is out of disk space');
      return reply.status(507).send({
        message: 'The server is out of storage space; this change was not saved. Try again later.',
        code: 'storage_full',
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ message: 'Internal server error', code: 'internal_error' });
    }
    const code =
      status === 413
        ? 'payload_too_large'
        : status === 429
          ? 'over_request_rate_limit'
          : status === 415
            ? 'unsupported_media_type'
            : error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
              ? 'invalid_json'
              : 'bad_request';
    const message = status === 413 ? 'Request body is too large' : error.message;
    return reply.status(status).send({ message, code });
  });

  // Standard clients (Supabase's GoTrue client, fetch wrappers) send `Content-Type: application/json` with no
  // body on requests that take none (logout, create-portal). That is no body, not malformed JSON; a route that
  // needs a body then answers 400 validation_failed naming the missing field.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    // NUL cannot be stored (see shared/text/nul.ts); in JSON it can only arrive as the escape \u0000.
    // Nor can a lone surrogate (shared/text/surrogates.ts): refused, whichever field holds it.
    const hasNul = text.includes('\\u0000');
    if (!hasNul && !mayHoldLoneSurrogate(text)) return parseJson(request, text, done);
    return parseJson(request, text, (error, parsed) => {
      if (error) return done(error, undefined);
      const where = findLoneSurrogate(parsed);
      if (where !== undefined) {
        return done(
          badRequest(
            `${where ? `${where}: ` : ''}must not contain a lone UTF-16 surrogate (half of a character)`,
          ),
          undefined,
        );
      }
      return done(null, hasNul ? stripNulDeep(parsed) : parsed);
    });
  });

  const aiProviders = new AiProviderRegistry(config, database, app.log, metrics);
  await aiProviders.start();
  app.addHook('onClose', () => aiProviders.close());
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    dataDir: config.DATA_DIR,
    log: app.log.child({ component: 'mail' }),
  });
  app.addHook('onClose', () => mailer.close());
  const documentEvents = new DocumentEvents();
  for (const type of DOCUMENT_EVENT_TYPES) documentEvents.on(type, () => metrics.documentEvent(type));
  if (database.poolStats) metrics.watchDatabasePool(database.poolStats);
  const documentCreationCheck = planLimitCheck(config);
  const documentWriter = new DocumentWriter({
    database,
    log: app.log,
    documentCreationCheck,
    events: documentEvents,
    metrics,
    trashRetentionDays: config.TRASH_RETENTION_DAYS,
  });
  const deps: ServerDependencies = {
    config,
    database,
    db: database.db,
    log: app.log,
    mailer,
    aiProviders,
    documentCreationCheck,
    documentWriter,
    documentEvents,
    metrics,
  };
  app.decorate('deps', deps);
  app.decorate('aiProviders', aiProviders);

  // Live collaboration (WebSocket /api/collab) and app.liveDocuments, used by the document routes.
  registerVersions(app);
  registerGoals(app);
  registerTrashPurge(app);
  registerFolderTrashPurge(app);
  registerNotificationDigest(app);
  registerImages(app);
  await registerCollaboration(app);
  metrics.watchCollaboration({
    sockets: () => {
      // Sockets, not (socket, document) pairs: one browser socket may carry several documents.
      const sockets = new Set<string>();
      for (const document of app.hocuspocus.documents.values()) {
        for (const connection of document.getConnections()) sockets.add(connection.socketId);
      }
      return sockets.size;
    },
    documents: () => app.hocuspocus.getDocumentsCount(),
  });
  if (config.METRICS_TOKEN) registerMetricsRoute(app, metrics, config.METRICS_TOKEN);
  // Before the routes: its hooks cover the creates of every prefix (/api/webhooks is registered apart).
  registerIdempotency(app);
  await app.register(registerRoutes, { prefix: '/api' });
  // Outside /api: MCP clients are configured with the endpoint's URL, and /mcp is the usual one.
  await app.register(mcpRoutes);
  // The OAuth sign-in MCP clients use, where they look for it (the /.well-known documents, /oauth/*).
  await app.register(oauthRoutes);
  await registerWebhooks(app, webhookOptions);

  const hasClientBuild = existsSync(path.join(CLIENT_DIST_DIR, 'index.html'));
  if (hasClientBuild) {
    await app.register(fastifyStatic, {
      root: CLIENT_DIST_DIR,
      wildcard: false,
      index: false,
      // The build writes .br/.gz siblings (scripts/vite-precompress.ts); send them when the browser accepts.
      preCompressed: true,
      // Hashed file names under /assets/ never change content, so browsers may keep them for a year.
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (pathname.startsWith('/api/') || pathname === '/api' || request.method !== 'GET' || !hasClientBuild) {
      return reply
        .status(404)
        .send({ message: `Route ${request.method} ${pathname} not found`, code: 'not_found' });
    }
    // SPA fallback: the client router renders every page, including its own 404 screen, which the status says too.
    const html = await renderIndexHtml(CLIENT_DIST_DIR, pathname, app.database, request.query);
    if (!isClientRoute(pathname)) reply.status(404);
    const { body, encoding } = await encodeHtml(html, request.headers['accept-encoding'], {
      sameForEveryone: !SHARED_PATH.test(pathname),
    });
    reply.type('text/html').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  });

  return app;
}
