import type { FastifyPluginAsync } from 'fastify';

export const settingsRoutes: FastifyPluginAsync = async () => {};
