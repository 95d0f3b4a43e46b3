import type { FastifyPluginAsync } from 'fastify';

export const documentRoutes: FastifyPluginAsync = async () => {};
