import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { apiTokenCheck } from '../api-tokens';
import { AppError, unauthorized } from '../errors';
import { allowBrowserClients, protectedResourceMetadataUrl } from '../oauth';
import { apiTokenSecret } from '../plugins';
import { MCP_PATH } from '../../shared/constants';
import { createMcpServer, type McpCaller } from './tools';

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP (the official SDK), stateless: every POST carries
 * one JSON-RPC message (or batch) and gets its JSON answer; there is no session, so no stream to open (GET)
 * or end (DELETE). Only an API token opens it (`Authorization: Bearer qw_pat_…`, or an OAuth access token
 * `qw_oat_…`), checked by the same token check as the REST API (revocation, expiry, the instance's switch, the
 * per-token rate limit, shared with the token's REST requests); a session's sign-in token does not. Its 401s
 * point to the protected resource metadata, where an OAuth client finds how to sign in.
 */
export const mcpRoutes: FastifyPluginAsync = async (app) => {
  const check = apiTokenCheck(app);
  // Browser-based MCP clients on any origin (no credentials: the bearer token is the only way in).
  allowBrowserClients(app, [MCP_PATH], ['GET', 'POST', 'DELETE']);

  async function callerOf(request: FastifyRequest, reply: FastifyReply): Promise<McpCaller> {
    try {
      const secret = apiTokenSecret(request);
      if (!secret) {
        throw unauthorized(
          'The MCP endpoint needs an API token: sign in with OAuth, or send Authorization: Bearer qw_pat_… (Account Settings → API tokens).',
          'api_token_missing',
        );
      }
      // Every scope includes reading; each tool then checks the ability it needs.
      const principal = await check(request, reply, secret, 'read');
      return {
        userId: principal.userId,
        tokenId: principal.apiToken!.id,
        scopes: principal.apiToken!.scopes,
      };
    } catch (error) {
      if (error instanceof AppError && error.status === 401) {
        const metadata = `resource_metadata="${protectedResourceMetadataUrl(request)}"`;
        reply.header(
          'www-authenticate',
          error.code === 'api_token_missing'
            ? `Bearer ${metadata}`
            : `Bearer error="invalid_token", ${metadata}`,
        );
      }
      throw error;
    }
  }

  app.post(MCP_PATH, async (request, reply) => {
    const caller = await callerOf(request, reply);
    const server = createMcpServer(app, caller);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // The transport writes the answer itself; the headers set so far (rate limit) go with it.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      // Hijacked: the error handler no longer answers for this request.
      request.log.error({ err: error }, 'MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        reply.raw.end(JSON.stringify({ message: 'Internal server error', code: 'internal_error' }));
      }
    }
  });

  const noSession = async (request: FastifyRequest, reply: FastifyReply) => {
    await callerOf(request, reply);
    return reply.status(405).header('allow', 'POST').send({
      message:
        'This MCP endpoint is stateless: send each message with POST (no session stream to open or end).',
      code: 'method_not_allowed',
    });
  };
  app.get(MCP_PATH, noSession);
  app.delete(MCP_PATH, noSession);
};
