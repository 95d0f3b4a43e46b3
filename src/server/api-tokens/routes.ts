import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requireAdmin } from '../accounts';
import { forbidden } from '../errors';
import { requireUser, type Principal } from '../plugins';
import { parseInput } from '../validation';
import { linkNextPage, parsePageQuery } from '../pagination';
import {
  apiTokenCreateSchema,
  apiTokenSettingsSchema,
  type ApiTokenList,
  type ApiTokenSettings,
} from '../../shared/schemas/api-tokens';
import { setTokensEnabled, tokensEnabled } from './repository';
import { createToken, listTokens, revokeToken } from './service';

/**
 * `/api/me/api-tokens`: the signed-in user's personal API tokens. `/api/admin/api-tokens`: the instance's
 * switch for them. Session only: the token gate already refuses tokens here (gate.ts), and these routes say so
 * again, since a token that could make tokens could outlive its own revocation.
 */

const tokenParams = z.object({ id: z.string() });
const CREATE_RATE_LIMIT = { config: { rateLimit: { max: 20, timeWindow: '1 minute' } } };

async function requireSession(request: FastifyRequest): Promise<Principal> {
  const principal = await requireUser(request);
  if (principal.apiToken) throw forbidden('API tokens cannot manage API tokens.', 'api_token_not_allowed');
  return principal;
}

export const apiTokenRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.deps;

  app.get('/me/api-tokens', async (request, reply) => {
    const page = parsePageQuery(request.query);
    const { userId } = await requireSession(request);
    const [enabled, { tokens, next }] = await Promise.all([
      tokensEnabled(ctx.db),
      listTokens(ctx, userId, page),
    ]);
    linkNextPage(request, reply, next);
    reply.header('cache-control', 'no-store');
    return { enabled, tokens } satisfies ApiTokenList;
  });

  app.post('/me/api-tokens', CREATE_RATE_LIMIT, async (request, reply) => {
    const body = parseInput(apiTokenCreateSchema, request.body);
    const { userId } = await requireSession(request);
    if (!(await tokensEnabled(ctx.db))) {
      throw forbidden('API tokens are turned off on this server.', 'api_tokens_disabled');
    }
    const created = await createToken(ctx, userId, body);
    return reply.status(201).header('cache-control', 'no-store').send(created);
  });

  app.delete('/me/api-tokens/:id', async (request, reply) => {
    const { id } = parseInput(tokenParams, request.params);
    const { userId } = await requireSession(request);
    await revokeToken(ctx, userId, id);
    return reply.status(204).send();
  });

  app.get('/admin/api-tokens', async (request) => {
    await requireAdmin(request);
    return { enabled: await tokensEnabled(ctx.db) } satisfies ApiTokenSettings;
  });

  app.put('/admin/api-tokens', async (request) => {
    const body = parseInput(apiTokenSettingsSchema, request.body);
    await requireAdmin(request);
    await setTokensEnabled(ctx.db, body.enabled);
    return { enabled: body.enabled } satisfies ApiTokenSettings;
  });
};
