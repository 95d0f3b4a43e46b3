import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { MEMBER_INVITES_PER_HOUR } from '../../shared/constants';
import { inviteMemberSchema, updateMemberSchema } from '../../shared/schemas/people';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import {
  changeMemberRole,
  getMembers,
  inviteMember,
  openAsMember,
  removeMember,
  sharedWithMe,
  type PeopleContext,
} from './service';

/**
 * People on a document. The owner's: `GET|POST /api/documents/:id/members`, `PATCH|DELETE
 * /api/documents/:id/members/:memberId`. A member's: `GET /api/shared-with-me` (the dashboard's list) and
 * `GET /api/shared-with-me/:id` (opening one).
 */

const documentParams = z.object({ id: z.uuid('Invalid document id') });
const memberParams = z.object({ id: z.uuid('Invalid document id'), memberId: z.uuid('Invalid member id') });

export const peopleRoutes: FastifyPluginAsync = async (app) => {
  const ctx: PeopleContext = app.deps;

  app.get('/documents/:id/members', async (request) => {
    const { id } = parseInput(documentParams, request.params);
    const { userId } = await requireUser(request);
    return getMembers(ctx, userId, id);
  });

  app.post(
    '/documents/:id/members',
    { config: { rateLimit: { max: MEMBER_INVITES_PER_HOUR, timeWindow: '1 hour' } } },
    async (request, reply) => {
      const { id } = parseInput(documentParams, request.params);
      const body = parseInput(inviteMemberSchema, request.body);
      const { userId } = await requireUser(request);
      return reply.status(201).send(await inviteMember(ctx, userId, id, body));
    },
  );

  app.patch('/documents/:id/members/:memberId', async (request) => {
    const { id, memberId } = parseInput(memberParams, request.params);
    const { role } = parseInput(updateMemberSchema, request.body);
    const { userId } = await requireUser(request);
    return changeMemberRole(ctx, userId, id, memberId, role);
  });

  app.delete('/documents/:id/members/:memberId', async (request, reply) => {
    const { id, memberId } = parseInput(memberParams, request.params);
    const { userId } = await requireUser(request);
    await removeMember(ctx, userId, id, memberId);
    return reply.status(204).send();
  });

  app.get('/shared-with-me', async (request, reply) => {
    const { userId } = await requireUser(request);
    reply.header('cache-control', 'private, no-cache');
    return sharedWithMe(ctx, userId);
  });

  app.get('/shared-with-me/:id', async (request, reply) => {
    const { id } = parseInput(documentParams, request.params);
    const { userId } = await requireUser(request);
    reply.header('cache-control', 'private, no-cache');
    return openAsMember(ctx, userId, id);
  });
};
