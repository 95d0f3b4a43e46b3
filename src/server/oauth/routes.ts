import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { parse as parseQueryString } from 'node:querystring';
import { z } from 'zod';
import { forbidden } from '../errors';
import { allowBrowserClients } from './cors';
import { requireUser, type Principal } from '../plugins';
import { parseInput } from '../validation';
import { MCP_PATH, OAUTH_AUTHORIZE_PATH } from '../../shared/constants';
import { API_TOKEN_SCOPES } from '../../shared/schemas/api-tokens';
import {
  oauthAuthorizeQuerySchema,
  oauthDecisionSchema,
  type ConnectedAppList,
  type OAuthConsent,
  type OAuthDecisionResult,
} from '../../shared/schemas/oauth';
import {
  decide,
  describeConsent,
  disconnectApp,
  exchangeToken,
  listConnectedApps,
  registerClient,
  revoke,
} from './service';

/** This server's origin as the request reached it (X-Forwarded-Proto/-Host when TRUST_PROXY is set). */
function requestOrigin(request: FastifyRequest): string {
  return new URL(`${request.protocol}://${request.host}`).origin;
}

/** Where a client finds out how to sign in to the MCP endpoint (RFC 9728), told in its 401s. */
export function protectedResourceMetadataUrl(request: FastifyRequest): string {
  return `${requestOrigin(request)}${PROTECTED_RESOURCE_PATH}${MCP_PATH}`;
}

const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
const AUTHORIZATION_SERVER_PATH = '/.well-known/oauth-authorization-server';
const REGISTER_LIMIT = { config: { rateLimit: { max: 20, timeWindow: '1 minute' } }, bodyLimit: 16_384 };
const TOKEN_LIMIT = { config: { rateLimit: { max: 60, timeWindow: '1 minute' } }, bodyLimit: 16_384 };

/**
 * The OAuth endpoints outside /api (where clients look for them): the metadata documents, registration, the
 * token and revocation endpoints. The authorization endpoint, GET /oauth/authorize, is a page of the web app
 * (the consent page), which asks /api/oauth/authorize (below) as the signed-in user.
 */
export const oauthRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.deps;
  // OAuth clients send form bodies to the token and revocation endpoints (here only: this plugin's scope).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, parseQueryString(body.toString())),
  );

  allowBrowserClients(
    app,
    [PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, AUTHORIZATION_SERVER_PATH],
    ['GET'],
  );
  allowBrowserClients(app, ['/oauth/register', '/oauth/token', '/oauth/revoke'], ['POST']);

  const protectedResource = async (request: FastifyRequest) => {
    const origin = requestOrigin(request);
    return {
      resource: `${origin}${MCP_PATH}`,
      authorization_servers: [origin],
      scopes_supported: API_TOKEN_SCOPES,
      bearer_methods_supported: ['header'],
      resource_name: 'Quillwright',
      resource_documentation: `${origin}/docs/api`,
    };
  };
  app.get(PROTECTED_RESOURCE_PATH, protectedResource);
  app.get(`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, protectedResource);

  app.get(AUTHORIZATION_SERVER_PATH, async (request) => {
    const origin = requestOrigin(request);
    return {
      issuer: origin,
      authorization_endpoint: `${origin}${OAUTH_AUTHORIZE_PATH}`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      revocation_endpoint: `${origin}/oauth/revoke`,
      scopes_supported: API_TOKEN_SCOPES,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${origin}/docs/api`,
    };
  });

  app.post('/oauth/register', REGISTER_LIMIT, async (request, reply) => {
    const client = await registerClient(ctx, request.body);
    return reply.status(201).header('cache-control', 'no-store').send(client);
  });

  app.post('/oauth/token', TOKEN_LIMIT, async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    const tokens = await exchangeToken(ctx, form, requestOrigin(request));
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
  });

  app.post('/oauth/revoke', TOKEN_LIMIT, async (request, reply) => {
    await revoke(ctx, (request.body ?? {}) as Record<string, unknown>);
    return reply.status(200).header('cache-control', 'no-store').send({});
  });
};

const appParams = z.object({ id: z.string() });

/** Session only: a token that could let in other apps, or disconnect them, could outlive its own revocation. */
async function requireSession(request: FastifyRequest): Promise<Principal> {
  const principal = await requireUser(request);
  if (principal.apiToken)
    throw forbidden('API tokens cannot manage connected apps.', 'api_token_not_allowed');
  return principal;
}

/**
 * `/api/oauth/authorize`: what the consent page shows, and the user's answer (Allow or Deny) as the signed-in
 * user. A bearer-token POST (not a cookie), so no other site can make it for the user. `/api/me/connected-apps`:
 * the apps the user let in, to disconnect.
 */
export const oauthApiRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.deps;

  app.get('/oauth/authorize', async (request, reply) => {
    const query = parseInput(oauthAuthorizeQuerySchema, request.query);
    await requireSession(request);
    reply.header('cache-control', 'no-store');
    return (await describeConsent(ctx, query, requestOrigin(request))) satisfies OAuthConsent;
  });

  app.post('/oauth/authorize', async (request, reply) => {
    const body = parseInput(oauthDecisionSchema, request.body);
    const { userId } = await requireSession(request);
    const redirectTo = await decide(ctx, userId, body, requestOrigin(request));
    reply.header('cache-control', 'no-store');
    return { redirect_to: redirectTo } satisfies OAuthDecisionResult;
  });

  app.get('/me/connected-apps', async (request, reply) => {
    const { userId } = await requireSession(request);
    reply.header('cache-control', 'no-store');
    return { apps: await listConnectedApps(ctx, userId) } satisfies ConnectedAppList;
  });

  app.delete('/me/connected-apps/:id', async (request, reply) => {
    const { id } = parseInput(appParams, request.params);
    const { userId } = await requireSession(request);
    await disconnectApp(ctx, userId, id);
    return reply.status(204).send();
  });
};
