import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../errors';
import type { ServerMetrics } from './server-metrics';

const METRICS_PATH = '/metrics';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * GET /metrics in Prometheus's text format, for the holder of METRICS_TOKEN (`Authorization: Bearer …`).
 * Call only when the token is set: without it the path is not served at all and answers like any unknown
 * path. Not rate-limited (only routes that opt in are) and logged at warn, so a scrape every 15 s neither
 * trips a limit nor writes two info lines each time.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: ServerMetrics, token: string): void {
  // Both sides hashed to one length, so the comparison takes the same time whatever was sent.
  const expected = digest(`Bearer ${token}`);
  app.get(METRICS_PATH, { logLevel: 'warn' }, async (request, reply) => {
    const sent = request.headers.authorization;
    if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw unauthorized(
        'GET /metrics needs the header Authorization: Bearer <METRICS_TOKEN>',
        'metrics_token_invalid',
      );
    }
    const body = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}
