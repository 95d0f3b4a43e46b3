import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DOCUMENT_STATE_REQUESTS_PER_MINUTE } from '../../shared/constants';
import { sendCompressible } from '../compressed-response';
import { AppError } from '../errors';
import { requireTokenClaims, requireUser, type Principal } from '../plugins';
import {
  getDocument,
  getDocumentHead,
  getDocumentState,
  listDocuments,
  type DocumentHeadRecord,
  type DocumentRecord,
  type DocumentsContext,
  type DocumentSummaryRecord,
} from './service';
import { parseInput } from '../validation';
import { linkNextPage, parsePageQuery } from '../pagination';
import {
  documentIdSchema,
  documentTitleSchema,
  type DocumentResponse,
  type DocumentSummary,
} from '../../shared/schemas/documents';

/**
 * Documents API: owner-only CRUD. GET/POST/PATCH answer with `ETag: "<version>"`; a PATCH with
 * If-Match is applied only when the document is still at that version (else 412, nothing changes).
 */

const paramsSchema = z.object({ id: documentIdSchema });
/**
 * The bodies of src/shared/schemas/documents.ts with `content` left to the document writer, whose validator
 * checks it once (DocumentWriter.validate, the same validator and messages as the shared schema's).
 */
const createBodySchema = z.object({ title: documentTitleSchema.optional(), content: z.unknown().optional() });
const updateBodySchema = createBodySchema.refine(
  (body) => body.title !== undefined || body.content !== undefined,
  { message: 'send title or content to update' },
);
/** `?content=false`: the document without its content (see getDocumentHead). */
const documentQuerySchema = z.object({ content: z.enum(['true', 'false']).optional() });

function presentSummary(row: DocumentSummaryRecord): DocumentSummary {
  return {
    id: row.id,
    title: row.title,
    user_id: row.userId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    is_public: row.isPublic,
  };
}

export function presentDocument(row: DocumentRecord): DocumentResponse {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    user_id: row.userId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    is_public: row.isPublic,
  };
}

export const etagOf = (version: number) => `"${version}"`;

/**
 * If-Match → the versions it accepts, or undefined for "any" (absent or `*`). Only strong tags of our form
 * (`"12"`) can match; weak tags (`W/"12"`) never match under If-Match's strong comparison (RFC 9110 13.1.1),
 * so a header with nothing usable yields [] and the write is refused with 412.
 */
function parseIfMatch(header: string | string[] | undefined): number[] | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return undefined;
  const versions: number[] = [];
  for (const part of value.split(',')) {
    const match = /^"(\d{1,9})"$/.exec(part.trim());
    if (match) versions.push(Number(match[1]));
  }
  return versions;
}

function sendDocument(
  request: FastifyRequest,
  reply: FastifyReply,
  row: DocumentRecord | DocumentHeadRecord,
  status = 200,
) {
  reply
    .status(status)
    .header('etag', etagOf(row.version))
    .header('cache-control', 'private, no-cache')
    .type('application/json; charset=utf-8');
  return sendCompressible(
    request,
    reply,
    JSON.stringify('content' in row ? presentDocument(row) : presentSummary(row)),
  );
}

/**
 * Authenticates like requireUser with one database round trip instead of two: the token is verified here
 * and `run` checks the session in the same SQL statement as its read or write (SessionOption). When that
 * statement finds nothing (404, or 412), the full check runs so a signed-out session answers 401.
 */
async function withSessionInStatement<T>(
  request: FastifyRequest,
  run: (principal: Principal) => Promise<T>,
): Promise<T> {
  const principal = await requireTokenClaims(request);
  try {
    return await run(principal);
  } catch (error) {
    if (error instanceof AppError && (error.status === 404 || error.status === 412))
      await requireUser(request);
    throw error;
  }
}

/** The documents service's context for a request handled by this app (REST routes, imports). */
export function documentsContextOf(app: FastifyInstance): DocumentsContext {
  return app.deps;
}

export const documentRoutes: FastifyPluginAsync = async (app) => {
  const ctx = documentsContextOf(app);
  const writer = ctx.documentWriter;
  const validContent = (content: unknown) => (content === undefined ? undefined : writer.validate(content));

  app.get('/', async (request, reply) => {
    const page = parsePageQuery(request.query);
    const { userId } = await requireUser(request);
    const { rows, next } = await listDocuments(ctx, userId, page);
    linkNextPage(request, reply, next);
    return reply.header('cache-control', 'private, no-cache').send(rows.map(presentSummary));
  });

  app.post('/', async (request, reply) => {
    const body = parseInput(createBodySchema, request.body);
    const content = validContent(body.content);
    const { userId } = await requireUser(request);
    const row = await writer.create({ ownerId: userId, title: body.title, content, source: 'rest' });
    return sendDocument(request, reply, row, 201);
  });

  // The editor's hot paths (open, autosave): the session check runs inside the document's own statement.
  app.get('/:id', async (request, reply) => {
    const { id } = parseInput(paramsSchema, request.params);
    const { content } = parseInput(documentQuerySchema, request.query);
    const row = await withSessionInStatement(request, ({ userId, sessionId, apiToken }) => {
      // The token gate has checked a token in full; a session is checked inside the statement.
      const session = apiToken ? {} : { sessionId };
      return content === 'false'
        ? getDocumentHead(ctx, userId, id, session)
        : getDocument(ctx, userId, id, session);
    });
    return sendDocument(request, reply, row);
  });

  // The Yjs state the editor starts from before its collaboration socket has synced (docs/collaboration.md).
  const stateRateLimit = {
    config: { rateLimit: { max: DOCUMENT_STATE_REQUESTS_PER_MINUTE, timeWindow: '1 minute' } },
  };
  app.get('/:id/state', stateRateLimit, async (request, reply) => {
    const { id } = parseInput(paramsSchema, request.params);
    const state = await withSessionInStatement(request, ({ userId, sessionId }) =>
      getDocumentState(ctx, userId, id, {
        sessionId,
        live: app.liveDocuments,
      }),
    );
    reply.header('cache-control', 'private, no-cache');
    if (!state) return reply.status(204).send();
    // The largest download of the editor's page, and mostly text.
    reply.type('application/octet-stream');
    return sendCompressible(request, reply, Buffer.from(state.buffer, state.byteOffset, state.byteLength));
  });

  app.patch('/:id', async (request, reply) => {
    const { id } = parseInput(paramsSchema, request.params);
    const body = parseInput(updateBodySchema, request.body);
    const content = validContent(body.content);
    const expectedVersions = parseIfMatch(request.headers['if-match']);
    const row = await withSessionInStatement(request, ({ userId, sessionId, apiToken }) =>
      writer.update({
        userId,
        documentId: id,
        title: body.title,
        content,
        source: 'rest',
        expectedVersions,
        sessionId: apiToken ? undefined : sessionId,
      }),
    );
    return sendDocument(request, reply, row);
  });

  // Deleting moves the document to the trash (trash.ts restores it or deletes it for good).
  app.delete('/:id', async (request, reply) => {
    const { id } = parseInput(paramsSchema, request.params);
    const { userId } = await requireUser(request);
    await writer.trash(userId, id);
    return reply.status(204).send();
  });
};
