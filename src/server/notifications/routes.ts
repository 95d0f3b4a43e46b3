import type { FastifyPluginAsync } from 'fastify';
import { listNotificationsQuerySchema, markReadSchema } from '../../shared/schemas/notifications';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import { listNotifications, markNotificationsRead, unreadCount } from './service';

/** The signed-in person's notifications (docs/notifications.md), under /api/notifications. */
export const notificationRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.deps;

  app.get('/notifications', async (request, reply) => {
    const { userId } = await requireUser(request);
    const query = parseInput(listNotificationsQuerySchema, request.query);
    reply.header('cache-control', 'no-store');
    return listNotifications(ctx, userId, query);
  });

  app.get('/notifications/unread-count', async (request, reply) => {
    const { userId } = await requireUser(request);
    reply.header('cache-control', 'no-store');
    return { unreadCount: await unreadCount(ctx, userId) };
  });

  app.post('/notifications/read', async (request) => {
    const { userId } = await requireUser(request);
    const body = parseInput(markReadSchema, request.body);
    return { unreadCount: await markNotificationsRead(ctx, userId, body) };
  });
};
