import type { FastifyPluginAsync } from 'fastify';

export const sharingRoutes: FastifyPluginAsync = async () => {};
