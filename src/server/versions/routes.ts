import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authorizeDocument, etagOf, presentDocument, type DocumentAbility } from '../documents';
import { requireUser } from '../plugins';
import { parseInput } from '../validation';
import { linkNextPage, parsePageQuery } from '../pagination';
import { documentIdSchema } from '../../shared/schemas/documents';
import {
  checkpointBodySchema,
  saveVersionBodySchema,
  versionIdSchema,
  type VersionDetail,
  type VersionSummary,
} from '../../shared/schemas/versions';
import type { RichTextDoc } from '../../shared/schemas/richText';
import type { VersionRecord, VersionSummaryRecord } from './repository';

/**
 * Version history API, owner only: another user's document (and a share-link visitor) gets 404, like the
 * documents API. Mounted under /api/documents.
 */

const documentParams = z.object({ id: documentIdSchema });
const versionParams = z.object({ id: documentIdSchema, versionId: versionIdSchema });

/** Writes that snapshot a whole document: generous for a writer, a wall for a script. */
const WRITE_RATE_LIMIT = { rateLimit: { max: 120, timeWindow: 60_000 } };

function presentSummary(row: VersionSummaryRecord): VersionSummary {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    reason: row.reason,
    name: row.name,
    authors: row.authors,
    word_count: row.wordCount,
  };
}

function presentDetail(row: VersionRecord): VersionDetail {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    reason: row.reason,
    name: row.name,
    title: row.title,
    content: row.content as RichTextDoc,
  };
}

export const versionRoutes: FastifyPluginAsync = async (app) => {
  const { versions } = app;

  /** The signed-in user, once the access policy lets them do `ability` to the document (else 401 / 404). */
  async function authorize(request: FastifyRequest, documentId: string, ability: DocumentAbility) {
    const { userId } = await requireUser(request);
    await authorizeDocument(app.database, { kind: 'user', userId }, documentId, ability);
    return { userId };
  }

  app.get('/:id/versions', async (request, reply) => {
    const { id } = parseInput(documentParams, request.params);
    const page = parsePageQuery(request.query);
    const { userId } = await authorize(request, id, 'seeVersions');
    const { rows, next } = await versions.listPage(userId, id, page);
    linkNextPage(request, reply, next);
    return reply.header('cache-control', 'private, no-cache').send(rows.map(presentSummary));
  });

  app.get('/:id/versions/:versionId', async (request, reply) => {
    const { id, versionId } = parseInput(versionParams, request.params);
    const { userId } = await authorize(request, id, 'seeVersions');
    const row = await versions.get(userId, id, versionId);
    // A version never changes once written.
    return reply.header('cache-control', 'private, max-age=3600').send(presentDetail(row));
  });

  app.post('/:id/versions', { config: WRITE_RATE_LIMIT }, async (request, reply) => {
    const { id } = parseInput(documentParams, request.params);
    const { name } = parseInput(saveVersionBodySchema, request.body);
    const { userId } = await authorize(request, id, 'manageVersions');
    const row = await versions.saveNamed(userId, id, name);
    return reply.status(201).send(presentDetail(row));
  });

  // Before the client applies an AI answer (or an import) over the document. 204 when the newest version
  // already holds the current state.
  app.post('/:id/versions/checkpoint', { config: WRITE_RATE_LIMIT }, async (request, reply) => {
    const { id } = parseInput(documentParams, request.params);
    const { reason } = parseInput(checkpointBodySchema, request.body);
    const { userId } = await authorize(request, id, 'manageVersions');
    const row = await versions.checkpoint(userId, id, reason);
    return row ? reply.status(201).send(presentDetail(row)) : reply.status(204).send();
  });

  app.post('/:id/versions/:versionId/restore', { config: WRITE_RATE_LIMIT }, async (request, reply) => {
    const { id, versionId } = parseInput(versionParams, request.params);
    const { userId } = await authorize(request, id, 'manageVersions');
    const { document, replaced } = await versions.restore(userId, id, versionId);
    return reply
      .header('etag', etagOf(document.version))
      .header('cache-control', 'private, no-cache')
      .send({ ...presentDocument(document), replaced_version_id: replaced?.id ?? null });
  });

  app.delete('/:id/versions/:versionId', async (request, reply) => {
    const { id, versionId } = parseInput(versionParams, request.params);
    const { userId } = await authorize(request, id, 'manageVersions');
    await versions.deleteNamed(userId, id, versionId);
    return reply.status(204).send();
  });
};
