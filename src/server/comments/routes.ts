import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { COMMENT_WRITES_PER_MINUTE } from '../../shared/constants';
import {
  createThreadSchema,
  editCommentSchema,
  listThreadsQuerySchema,
  replySchema,
  threadIdSchema,
  threadStatusSchema,
} from '../../shared/schemas/comments';
import { perUserLimit } from '../ai';
import { notFound } from '../errors';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import {
  createThread,
  deleteComment,
  deleteThread,
  editComment,
  listThreads,
  mentionablePeople,
  reply as replyInThread,
  setThreadStatus,
  type CommentActor,
  type CommentsContext,
} from './service';

/**
 * Comments on passages, for signed-in people (`/api/documents/:id/threads...`, session or API token) and for
 * share-link visitors (`/api/shared/:id/threads...`, the share token in `X-Share-Token`): the same service and
 * the same access policy behind both. docs/comments.md.
 */

const documentParams = z.object({ id: z.uuid('Invalid document id') });
const threadParams = documentParams.extend({ threadId: threadIdSchema });
const commentParams = threadParams.extend({ commentId: z.uuid('Invalid comment id') });

type Resolve = (request: FastifyRequest) => Promise<CommentActor>;

/** The same routes under `prefix`, with `actorOf` deciding who asks. */
function commentRoutes(prefix: string, actorOf: Resolve): FastifyPluginAsync {
  return async (app) => {
    const ctx: CommentsContext = app.deps;
    const writeRate = perUserLimit(app, {
      bucket: 'comment-write',
      max: COMMENT_WRITES_PER_MINUTE,
      windowMs: 60_000,
    });
    const limitWrites = (request: FastifyRequest, reply: FastifyReply, actor: CommentActor) =>
      writeRate(request, reply, actor.kind === 'user' ? actor.userId : `visitor:${request.ip}`);

    app.get(`${prefix}/:id/threads`, async (request, reply) => {
      const { id } = parseInput(documentParams, request.params);
      const query = parseInput(listThreadsQuerySchema, request.query);
      const actor = await actorOf(request);
      reply.header('cache-control', 'private, no-cache');
      return listThreads(ctx, actor, id, query);
    });

    app.post(`${prefix}/:id/threads`, async (request, reply) => {
      const { id } = parseInput(documentParams, request.params);
      const body = parseInput(createThreadSchema, request.body);
      const actor = await actorOf(request);
      await limitWrites(request, reply, actor);
      const { thread, created } = await createThread(ctx, actor, id, body);
      return reply.status(created ? 201 : 200).send(thread);
    });

    app.patch(`${prefix}/:id/threads/:threadId`, async (request) => {
      const { id, threadId } = parseInput(threadParams, request.params);
      const body = parseInput(threadStatusSchema, request.body);
      const actor = await actorOf(request);
      return setThreadStatus(ctx, actor, id, threadId, body);
    });

    app.delete(`${prefix}/:id/threads/:threadId`, async (request, reply) => {
      const { id, threadId } = parseInput(threadParams, request.params);
      const actor = await actorOf(request);
      await deleteThread(ctx, actor, id, threadId);
      return reply.status(204).send();
    });

    app.post(`${prefix}/:id/threads/:threadId/comments`, async (request, reply) => {
      const { id, threadId } = parseInput(threadParams, request.params);
      const body = parseInput(replySchema, request.body);
      const actor = await actorOf(request);
      await limitWrites(request, reply, actor);
      return reply.status(201).send(await replyInThread(ctx, actor, id, threadId, body));
    });

    app.patch(`${prefix}/:id/threads/:threadId/comments/:commentId`, async (request) => {
      const { id, threadId, commentId } = parseInput(commentParams, request.params);
      const body = parseInput(editCommentSchema, request.body);
      const actor = await actorOf(request);
      return editComment(ctx, actor, id, threadId, commentId, body);
    });

    app.delete(`${prefix}/:id/threads/:threadId/comments/:commentId`, async (request, reply) => {
      const { id, threadId, commentId } = parseInput(commentParams, request.params);
      const actor = await actorOf(request);
      await deleteComment(ctx, actor, id, threadId, commentId);
      return reply.status(204).send();
    });
  };
}

async function signedIn(request: FastifyRequest): Promise<CommentActor> {
  const { userId } = await requireUser(request);
  return { kind: 'user', userId };
}

/** A share-link visitor: their share token names the document; without one the document is not shared. */
async function visitor(request: FastifyRequest): Promise<CommentActor> {
  const token = request.headers['x-share-token'];
  const { id } = parseInput(documentParams, request.params);
  if (typeof token !== 'string' || !token) throw notFound('This document is not shared');
  return { kind: 'share', token, documentId: id };
}

const threadRoutes = commentRoutes('/documents', signedIn);

/** The signed-in routes, and the people a comment may mention (share-link visitors mention no one). */
export const memberCommentRoutes: FastifyPluginAsync = async (app) => {
  await app.register(threadRoutes);
  app.get('/documents/:id/mentions', async (request, reply) => {
    const { id } = parseInput(documentParams, request.params);
    const actor = await signedIn(request);
    reply.header('cache-control', 'private, no-cache');
    return mentionablePeople(app.deps, actor, id);
  });
};
export const sharedCommentRoutes = commentRoutes('/shared', visitor);
