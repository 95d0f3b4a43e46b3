import pino, { type Logger } from 'pino';
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

/** Never written to the log, whatever a route or library passes along. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.apiKey',
  '*.api_key',
];

export function createLogger(level: string, format: LogFormat): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  if (format === 'json') return pino(options);
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
