import type { FastifyPluginAsync } from 'fastify';

export const aiRoutes: FastifyPluginAsync = async () => {};
