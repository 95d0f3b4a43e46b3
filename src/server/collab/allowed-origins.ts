import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * Which web pages may open the collaboration socket. A WebSocket is not bound by the same-origin policy: any
 * page a signed-in writer visits could open one to this server (cross-site WebSocket hijacking). Browsers send
 * the page's origin in `Origin` on every WebSocket handshake, so the socket accepts the server's own origin
 * (as the request reaches it, honouring X-Forwarded-Proto/-Host when TRUST_PROXY is set), APP_URL's origin and
 * ALLOWED_ORIGINS, and refuses every other one before the upgrade.
 *
 * A handshake without `Origin` is accepted: only non-browser clients (scripts, other servers, the test
 * clients) omit it, and they are not a hostile page's way in; they still need a token like everyone else.
 */
function isAllowedSocketOrigin(
  origin: string | undefined,
  request: Pick<FastifyRequest, 'protocol' | 'host'>,
  config: Pick<Config, 'APP_URL' | 'ALLOWED_ORIGINS'>,
): boolean {
  if (origin === undefined) return true;
  let normalized: string;
  try {
    normalized = new URL(origin).origin;
  } catch {
    return false;
  }
  if (normalized === 'null') return false;
  if (normalized === new URL(`${request.protocol}://${request.host}`).origin) return true;
  if (normalized === new URL(config.APP_URL).origin) return true;
  return config.ALLOWED_ORIGINS.includes(normalized);
}

/** A route hook: answers 403 `origin_not_allowed` (no upgrade) to a handshake from a page of another origin. */
export function refuseForeignOrigin(config: Pick<Config, 'APP_URL' | 'ALLOWED_ORIGINS'>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (isAllowedSocketOrigin(request.headers.origin, request, config)) return;
    request.log.info(
      { origin: request.headers.origin?.slice(0, 200) },
      'collaboration socket refused: origin',
    );
    return reply
      .status(403)
      .send({ message: 'This page may not open the collaboration socket', code: 'origin_not_allowed' });
  };
}
