import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { unlockShareSchema, updateShareSettingsSchema } from '../../shared/schemas/sharing';
import { notFound, tooManyRequests } from '../errors';
import { requireUser } from '../plugins/auth';
import { getShareSettings, openSharedDocument, unlockSharedDocument, updateShareSettings } from './service';
import { parseInput } from '../validation';

/** Share password attempts per minute from one address for one document. */
export const SHARE_PASSWORD_ATTEMPTS_PER_MINUTE = 5;
/** Attempts per minute on one document from all addresses together (an attacker rotating addresses). */
export const SHARE_PASSWORD_ATTEMPTS_PER_DOCUMENT_PER_MINUTE = 20;

const ownerParams = z.object({ id: z.uuid('Invalid document id') });

/** A visitor's malformed id gets the same answer as a private document: nothing to see here. */
function sharedId(request: FastifyRequest): string {
  const parsed = z.object({ id: z.uuid() }).safeParse(request.params);
  if (!parsed.success) throw notFound('This document is not shared');
  return parsed.data.id;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by the collaboration plugin: drops visitors whose share access changed. */
    onShareSettingsChanged?: (documentId: string) => Promise<void> | void;
  }
}

export const sharingRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.database;
  // @fastify/rate-limit applies one route-config limit per request; the per-document one is checked here.
  const perDocument = app.createRateLimit({
    max: SHARE_PASSWORD_ATTEMPTS_PER_DOCUMENT_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `share-unlock-document:${(request.params as { id?: string }).id ?? ''}`,
  });

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
    await app.onShareSettingsChanged?.(id);
    return settings;
  });

  app.get('/shared/:id', async (request, reply) => {
    const id = sharedId(request);
    const token = request.headers['x-share-token'];
    const shared = await openSharedDocument(
      db,
      app.config.JWT_SECRET,
      id,
      typeof token === 'string' ? token : undefined,
    );
    reply.header('cache-control', 'no-store');
    return shared;
  });

  app.post(
    '/shared/:id/unlock',
    {
      config: {
        rateLimit: {
          max: SHARE_PASSWORD_ATTEMPTS_PER_MINUTE,
          timeWindow: '1 minute',
          keyGenerator: (request: FastifyRequest) =>
            `share-unlock:${request.ip}:${(request.params as { id?: string }).id ?? ''}`,
        },
      },
    },
    async (request, reply) => {
      const id = sharedId(request);
      const { password } = parseInput(unlockShareSchema, request.body);
      const limit = await perDocument(request);
      if (!limit.isAllowed && limit.isExceeded) {
        reply.header('retry-after', String(limit.ttlInSeconds));
        throw tooManyRequests(
          `Too many password attempts, please try again in ${limit.ttlInSeconds} seconds.`,
        );
      }
      return unlockSharedDocument(db, app.config.JWT_SECRET, id, password);
    },
  );
};
