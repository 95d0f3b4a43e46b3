import type { FastifyInstance } from 'fastify';

/**
 * CORS for what an MCP client running in a web page on another origin must reach (docs/api.md): the MCP endpoint,
 * the OAuth metadata, registration, token and revocation endpoints. Any origin, and never credentials: these take
 * a bearer token or nothing, so a page gains nothing a script elsewhere could not do, and no cookie is involved.
 * The rest of the server (the /api the web app uses) sends no CORS headers, so browsers keep other origins out.
 */

/** Request headers a browser client may send. Authorization must be named: `*` does not cover it. */
const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Accept',
  'Mcp-Protocol-Version',
  'Mcp-Session-Id',
  'Last-Event-ID',
].join(', ');
/** Response headers a browser client may read: the MCP session and where to sign in (in a 401). */
const EXPOSED_HEADERS = ['Mcp-Session-Id', 'WWW-Authenticate'].join(', ');
const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

/**
 * Opens `paths` (routes of this plugin's scope, answering `methods`) to browser clients of any origin: every
 * answer carries `Access-Control-Allow-Origin: *`, and a preflight (`OPTIONS`) is answered 204.
 */
export function allowBrowserClients(
  app: FastifyInstance,
  paths: readonly string[],
  methods: readonly string[],
): void {
  const open = new Set(paths);
  app.addHook('onRequest', async (request, reply) => {
    if (!open.has(request.routeOptions.url ?? '')) return;
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  });
  const allowMethods = [...methods, 'OPTIONS'].join(', ');
  for (const path of paths) {
    app.options(path, async (_request, reply) =>
      reply
        .status(204)
        .header('access-control-allow-methods', allowMethods)
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
        .send(),
    );
  }
}
