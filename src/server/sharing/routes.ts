import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { unlockShareSchema, updateShareSettingsSchema } from '../../shared/schemas/sharing';
import { AppError, notFound, tooManyRequests } from '../errors';
import { requireUser } from '../plugins';
import { SharePasswordAttempts } from './password-attempts';
import {
  checkSharePassword,
  getShareSettings,
  issueShareToken,
  linkKeyFromQuery,
  openSharedDocument,
  resetShareLink,
  updateShareSettings,
} from './service';
import { parseInput } from '../validation';

/**
 * Unlock requests per minute from one address, whatever the document: bounds one client's work (each wrong
 * password costs an argon2 verification). Wrong passwords per document are counted in SharePasswordAttempts.
 */
const SHARE_UNLOCK_REQUESTS_PER_IP_PER_MINUTE = 30;

const ownerParams = z.object({ id: z.uuid('Invalid document id') });

/** A visitor's malformed id gets the same answer as a private document: nothing to see here. */
function sharedId(request: FastifyRequest): string {
  const parsed = z.object({ id: z.uuid() }).safeParse(request.params);
  if (!parsed.success) throw notFound('This document is not shared');
  return parsed.data.id;
}

export const sharingRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.database;
  const passwordAttempts = new SharePasswordAttempts();
  // Subscribers (collaboration) re-decide access for the document's live connections.
  const accessChanged = (documentId: string) =>
    app.deps.documentEvents.publish({ type: 'access.changed', documentId });

  app.get('/documents/:id/share', async (request) => {
    const { id } = parseInput(ownerParams, request.params);
    const user = await requireUser(request);
    return getShareSettings(db, user.userId, id);
  });

  app.put('/documents/:id/share', async (request) => {
    const { id } = parseInput(ownerParams, request.params);
    const body = parseInput(updateShareSettingsSchema, request.body);
    const user = await requireUser(request);
    const settings = await updateShareSettings(db, user.userId, id, body);
    await accessChanged(id);
    return settings;
  });

  app.post('/documents/:id/share/reset', async (request) => {
    const { id } = parseInput(ownerParams, request.params);
    const user = await requireUser(request);
    const settings = await resetShareLink(db, user.userId, id);
    await accessChanged(id);
    return settings;
  });

  app.get('/shared/:id', async (request, reply) => {
    // Set first so refusals carry it too: browsers may keep a 410 (cacheable by default), and a link that
    // stopped working can work again (a document restored from the trash, sharing turned back on).
    reply.header('cache-control', 'no-store');
    const id = sharedId(request);
    const token = request.headers['x-share-token'];
    const shared = await openSharedDocument(
      db,
      app.config.JWT_SECRET,
      id,
      typeof token === 'string' ? token : undefined,
      linkKeyFromQuery(request.query),
    );
    return shared;
  });

  app.post(
    '/shared/:id/unlock',
    {
      config: {
        rateLimit: { max: SHARE_UNLOCK_REQUESTS_PER_IP_PER_MINUTE, timeWindow: '1 minute' },
      },
    },
    async (request, reply) => {
      const id = sharedId(request);
      const { password } = parseInput(unlockShareSchema, request.body);
      const address = normalizeIP(request.ip);
      const wait = passwordAttempts.waitSeconds(id, address);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw tooManyRequests(`Too many password attempts, please try again in ${wait} seconds.`);
      }
      try {
        const row = await checkSharePassword(db, id, linkKeyFromQuery(request.query), password);
        passwordAttempts.recordSuccess(id, address);
        return await issueShareToken(app.config.JWT_SECRET, row);
      } catch (error) {
        if (error instanceof AppError && error.code === 'share_password_invalid') {
          passwordAttempts.recordFailure(id, address);
        }
        throw error;
      }
    },
  );
};
