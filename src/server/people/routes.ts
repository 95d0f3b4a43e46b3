import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { MEMBER_INVITES_PER_HOUR } from '../../shared/constants';
import { inviteMemberSchema, updateMemberSchema } from '../../shared/schemas/people';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import {
  changeFolderMemberRole,
  getFolderMembers,
  inviteFolderMember,
  removeFolderMember,
} from './folder-service';
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
 * People on a document or a folder. The owner's: `GET|POST /api/documents/:id/members`, `PATCH|DELETE
 * /api/documents/:id/members/:memberId`, and the same under `/api/folders/:id/members`. A member's:
 * `GET /api/shared-with-me` (the dashboard's list) and `GET /api/shared-with-me/:id` (opening one).
 */

const documentParams = z.object({ id: z.uuid('Invalid document id') });
const memberParams = z.object({ id: z.uuid('Invalid document id'), memberId: z.uuid('Invalid member id') });
const folderParams = z.object({ id: z.uuid('Invalid folder id') });
const folderMemberParams = z.object({
  id: z.uuid('Invalid folder id'),
  memberId: z.uuid('Invalid member id'),
});
const INVITE_RATE_LIMIT = { config: { rateLimit: { max: MEMBER_INVITES_PER_HOUR, timeWindow: '1 hour' } } };

export const peopleRoutes: FastifyPluginAsync = async (app) => {
  const ctx: PeopleContext = app.deps;

  app.get('/documents/:id/members', async (request) => {
    const { id } = parseInput(documentParams, request.params);
    const { userId } = await requireUser(request);
    return getMembers(ctx, userId, id);
  });

  app.post('/documents/:id/members', INVITE_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(documentParams, request.params);
    const body = parseInput(inviteMemberSchema, request.body);
    const { userId } = await requireUser(request);
    return reply.status(201).send(await inviteMember(ctx, userId, id, body));
  });

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

  app.get('/folders/:id/members', async (request) => {
    const { id } = parseInput(folderParams, request.params);
    const { userId } = await requireUser(request);
    return getFolderMembers(ctx, userId, id);
  });

  app.post('/folders/:id/members', INVITE_RATE_LIMIT, async (request, reply) => {
    const { id } = parseInput(folderParams, request.params);
    const body = parseInput(inviteMemberSchema, request.body);
    const { userId } = await requireUser(request);
    return reply.status(201).send(await inviteFolderMember(ctx, userId, id, body));
  });

  app.patch('/folders/:id/members/:memberId', async (request) => {
    const { id, memberId } = parseInput(folderMemberParams, request.params);
    const { role } = parseInput(updateMemberSchema, request.body);
    const { userId } = await requireUser(request);
    return changeFolderMemberRole(ctx, userId, id, memberId, role);
  });

  app.delete('/folders/:id/members/:memberId', async (request, reply) => {
    const { id, memberId } = parseInput(folderMemberParams, request.params);
    const { userId } = await requireUser(request);
    await removeFolderMember(ctx, userId, id, memberId);
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
