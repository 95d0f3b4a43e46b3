import type { FastifyPluginAsync } from 'fastify';

export const billingRoutes: FastifyPluginAsync = async () => {};
