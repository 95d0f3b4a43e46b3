import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';

export type LogFormat = 'pretty' | 'json';

/**
 * JSON lines for log collectors (journald, Docker, Loki) unless a person is watching: on a terminal the lines
 * are coloured and readable. LOG_FORMAT=json forces JSON, LOG_FORMAT=pretty forces readable lines.
 */
export function chooseLogFormat(
  requested: string | undefined,
  stdoutIsTerminal: boolean | undefined,
): LogFormat {
  if (requested === 'json' || requested === 'pretty') return requested;
  return stdoutIsTerminal ? 'pretty' : 'json';
}

/**
 * Never written to the log, whatever a route or library passes along: the values of these keys anywhere in a
 * logged object's plain objects and arrays, down to two levels below the top (secrets are never logged deeper).
 * Request bodies are never logged at all (the request serializer keeps method and URL, no headers), and errors
 * go through `safeError`.
 */
const SECRET_KEYS = new Set([
  'password',
  'token',
  'apiKey',
  'api_key',
  'secret',
  'authorization',
  'cookie',
  'set-cookie',
]);
/** The top level and two below it (what pino's `key`, `*.key` and `*.*.key` redact paths covered). */
const SECRET_SEARCH_DEPTH = 3;
const REDACTED = '[redacted]';

/** Query parameters whose values are credentials (a token in a link, a key): their values are replaced. */
const SECRET_QUERY_PARAMETER = /^(?:.*token.*|.*secret.*|.*password.*|.*key|code|signature|sig)$/i;

/** What of an error may be logged: its kind, place and the database's codes, never the values it was about. */
const SAFE_ERROR_FIELDS = [
  'code',
  'statusCode',
  'status',
  'severity',
  'routine',
  'schema',
  'table',
  'column',
  'constraint',
  'query',
  'errno',
  'syscall',
];
/** A message longer than this is cut: messages that quote their input should not carry a whole document. */
const MAX_ERROR_MESSAGE_LENGTH = 500;
const MAX_CAUSE_DEPTH = 5;

/**
 * An error as it may be logged. A failed query's error carries the statement's parameters (the document being
 * saved, a password hash) in its message ("Failed query: … params: …") and in `params`, and the database's
 * `detail` and `where` quote the row or the JSON it refused; none of those leave this function. Kept: the
 * type, the message up to its parameters, the stack frames, the database's codes and the SQL text (whose
 * values are placeholders), and the same for each cause.
 */
function safeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) {
    return typeof error === 'string' ? cutMessage(error) : error;
  }
  const message = cutMessage(error.message);
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const safe: Record<string, unknown> = {
    type: error.constructor?.name ?? error.name,
    message,
    stack: [`${error.name}: ${message}`, ...frames].join('\n'),
  };
  const fields = error as unknown as Record<string, unknown>;
  for (const key of SAFE_ERROR_FIELDS) {
    const value = fields[key];
    if (typeof value === 'string') safe[key] = key === 'query' ? value.slice(0, 2_000) : value;
    else if (typeof value === 'number') safe[key] = value;
  }
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) safe.cause = safeError(error.cause, depth + 1);
  return safe;
}

function cutMessage(message: string): string {
  const params = message.search(/\n?params:/);
  const kept = params >= 0 ? message.slice(0, params) : message;
  return kept.length > MAX_ERROR_MESSAGE_LENGTH ? `${kept.slice(0, MAX_ERROR_MESSAGE_LENGTH)}…` : kept;
}

/** A URL as it may be logged: credential-like query values replaced. */
function safeUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  let changed = false;
  for (const key of new Set(params.keys())) {
    if (SECRET_QUERY_PARAMETER.test(key)) {
      params.set(key, REDACTED);
      changed = true;
    }
  }
  return changed ? `${url.slice(0, query)}?${params.toString()}` : url;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request line fields, with the URL's credentials removed. */
function safeRequest(request: LoggedRequest) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? safeUrl(request.url) : request.url,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * Options every logger of the server gets (main.ts' logger and the one buildApp makes from options): redacted
 * credentials and the safe forms of errors and requests. See docs/security.md ("What is logged").
 */
const serializers = { err: safeError, error: safeError, req: safeRequest };

function isPlainContainer(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `value` with every secret key's value replaced; copied only where something is replaced, never changed. */
function withoutSecrets<T>(value: T, depth: number): T {
  if (!isPlainContainer(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const safe =
      SECRET_KEYS.has(key) && item !== undefined
        ? REDACTED
        : depth > 1
          ? withoutSecrets(item, depth - 1)
          : item;
    if (safe === item) continue;
    copy ??= (Array.isArray(value) ? [...value] : { ...value }) as Record<string, unknown>;
    copy[key] = safe;
  }
  return (copy ?? value) as T;
}

/**
 * The logged object without credentials. What a serializer presents (requests, errors) is left to it: those are
 * class instances whose safe form the serializer builds. This replaces pino's `redact` with wildcard paths,
 * which cost about 9 µs per log line, a tenth of the server's CPU for a document GET (bench:api); this costs
 * well under one.
 */
function redactSecrets(object: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(object)) {
    if (Object.hasOwn(serializers, key)) continue;
    const item = object[key];
    const safe =
      SECRET_KEYS.has(key) && item !== undefined ? REDACTED : withoutSecrets(item, SECRET_SEARCH_DEPTH - 1);
    if (safe === item) continue;
    copy ??= { ...object };
    copy[key] = safe;
  }
  return copy ?? object;
}

export const LOG_SAFETY_OPTIONS = {
  formatters: { log: redactSecrets },
  serializers,
} satisfies LoggerOptions;

/** `destination`: where JSON lines go instead of stdout (tests read the log from it). */
export function createLogger(level: string, format: LogFormat, destination?: DestinationStream): Logger {
  const options = { level, ...LOG_SAFETY_OPTIONS };
  if (format === 'json') return destination ? pino(options, destination) : pino(options);
  // Synchronous, in this thread: pino's transport would start a worker thread for a few lines a second.
  return pino(
    options,
    pretty({
      sync: true,
      colorize: true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId,req,res,responseTime',
      messageFormat: readableRequestLine,
    }),
  );
}

/** Fastify's request lines as one short line each: "GET /api/documents", then "→ 200 in 4 ms". */
function readableRequestLine(log: Record<string, unknown>, messageKey: string): string {
  const req = log.req as { method?: string; url?: string } | undefined;
  const res = log.res as { statusCode?: number } | undefined;
  const message = String(log[messageKey] ?? '');
  if (req && message === 'incoming request') return `${req.method} ${req.url}`;
  if (res && typeof log.responseTime === 'number') {
    return `→ ${res.statusCode} in ${Math.round(log.responseTime)} ms`;
  }
  return message;
}
