import type { FastifyPluginAsync } from 'fastify';
import { adminAiRoutes } from './admin/ai-settings-routes';
import { aiRoutes } from './ai/routes';
import { aiCommandRoutes } from './ai-commands/routes';
import { aiChatRoutes } from './ai-chat/routes';
import { authRoutes } from './accounts/routes';
import { billingRoutes } from './billing/routes';
import { documentRoutes } from './documents/routes';
import { exportRoutes } from './export/routes';
import { healthRoutes } from './health/routes';
import { importRoutes } from './imports/import-routes';
import { searchRoutes } from './search/search-routes';
import { settingsRoutes } from './settings/routes';
import { sharingRoutes } from './sharing/routes';
import { versionRoutes } from './versions/routes';

/** Every API route group, mounted under /api. */
export const registerRoutes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(documentRoutes, { prefix: '/documents' });
  await app.register(versionRoutes, { prefix: '/documents' });
  await app.register(importRoutes, { prefix: '/documents/import' });
  await app.register(searchRoutes, { prefix: '/search' });
  await app.register(settingsRoutes, { prefix: '/me' });
  await app.register(aiRoutes, { prefix: '/ai' });
  await app.register(aiCommandRoutes, { prefix: '/ai/commands' });
  await app.register(aiChatRoutes, { prefix: '/ai/chat' });
  await app.register(billingRoutes);
  await app.register(sharingRoutes);
  await app.register(exportRoutes);
  await app.register(adminAiRoutes, { prefix: '/admin' });
};
