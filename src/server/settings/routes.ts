import type { FastifyPluginAsync } from 'fastify';
import { updateUserSettingsSchema } from '../../shared/schemas/settings';
import { requireUser } from '../plugins';
import { getUserSettings, updateUserSettings } from './service';
import { parseInput } from '../validation';

/** Mounted at /api/me: the signed-in user's own account settings. */
export const settingsRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.database;

  app.get('/settings', async (request, reply) => {
    const user = await requireUser(request);
    reply.header('cache-control', 'no-store');
    return getUserSettings(db, user.userId);
  });

  app.put('/settings', async (request) => {
    const user = await requireUser(request);
    const body = parseInput(updateUserSettingsSchema, request.body);
    return updateUserSettings(db, user.userId, body);
  });
};
