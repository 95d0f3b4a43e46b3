import type { FastifyPluginAsync } from 'fastify';
import { aiRoutes } from './ai/ai';
import { authRoutes } from './auth/auth';
import { billingRoutes } from './billing/billing';
import { documentRoutes } from './documents/documents';
import { exportRoutes } from './export/export';
import { healthRoutes } from './health/health';
import { importRoutes } from '../imports/import-routes';
import { searchRoutes } from '../search/search-routes';
import { settingsRoutes } from './settings/settings';
import { sharingRoutes } from './sharing/sharing';

/** Every API route group, mounted under /api. */
export const registerRoutes: FastifyPluginAsync = async (app) => {
  await app.register(healthRoutes);
  await app.register(authRoutes, { prefix: '/auth' });
  await app.register(documentRoutes, { prefix: '/documents' });
  await app.register(importRoutes, { prefix: '/documents/import' });
  await app.register(searchRoutes, { prefix: '/search' });
  await app.register(settingsRoutes, { prefix: '/me' });
  await app.register(aiRoutes, { prefix: '/ai' });
  await app.register(billingRoutes);
  await app.register(sharingRoutes);
  await app.register(exportRoutes);
};
