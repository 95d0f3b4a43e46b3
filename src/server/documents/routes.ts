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
import type { RichTextDoc, RichTextNode } from '../../shared/schemas/richText';
import {
  MAX_DOCUMENT_TITLE_LENGTH,
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
    // GET answers Markdown for Accept: text/markdown: a cache must not hand one to the other.
    .header('vary', 'accept')
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

/**
 * Markdown in and out of the document routes (docs/api.md), handed in by routes.ts: the export's Markdown writer
 * and the import's Markdown parser, which themselves build on documents (so documents takes them as a parameter).
 */
export interface MarkdownConversion {
  /** The document as Markdown: its title as the opening heading, then the text as it stands (pending suggestions left out). */
  toMarkdown(title: string, content: unknown): Promise<string>;
  /** Markdown → content, every block kept (an opening heading too): 422 `import_failed` when it cannot be read. */
  toDocument(markdown: string, owner: string): Promise<RichTextDoc>;
}

const MARKDOWN_TYPES = ['text/markdown', 'text/x-markdown'];

/** The q of each media range of an Accept header. */
function acceptRanges(accept: string): Map<string, number> {
  const ranges = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [range, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!range) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    ranges.set(range, Number.isFinite(weight) ? weight : 0);
  }
  return ranges;
}

/** Whether the client asked for Markdown over JSON (`Accept: text/markdown`, ranked above application/json). */
function wantsMarkdown(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = acceptRanges(accept);
  const markdown = Math.max(...MARKDOWN_TYPES.map((type) => ranges.get(type) ?? 0));
  const json = ranges.get('application/json') ?? ranges.get('application/*') ?? 0;
  return markdown > 0 && markdown >= json;
}

const isMarkdownBody = (request: FastifyRequest) =>
  MARKDOWN_TYPES.includes((request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase());

const inlineText = (node: RichTextNode): string => node.text ?? (node.content ?? []).map(inlineText).join('');

/**
 * A Markdown body as a title and content: a heading that opens it is the title (as the Markdown answer and the
 * export begin with one), the rest the content; without one the title stays as it is.
 */
function splitTitle(doc: RichTextDoc): { title: string | undefined; content: RichTextDoc } {
  const [first, ...rest] = doc.content;
  const title = first?.type === 'heading' ? inlineText(first).replace(/\s+/g, ' ').trim() : '';
  if (!title) return { title: undefined, content: doc };
  return { title: title.slice(0, MAX_DOCUMENT_TITLE_LENGTH).trim(), content: { type: 'doc', content: rest } };
}

/** The documents service's context for a request handled by this app (REST routes, imports). */
export function documentsContextOf(app: FastifyInstance): DocumentsContext {
  return app.deps;
}

export const documentRoutes: FastifyPluginAsync<{ markdown: MarkdownConversion }> = async (
  app,
  { markdown },
) => {
  const ctx = documentsContextOf(app);
  const writer = ctx.documentWriter;
  const validContent = (content: unknown) => (content === undefined ? undefined : writer.validate(content));

  // A Markdown body arrives as text; POST and PATCH convert it with the import's parser (markdownBody).
  app.addContentTypeParser(MARKDOWN_TYPES, { parseAs: 'string' }, (_request, body, done) => done(null, body));

  /** A Markdown request body as the title (its opening heading, if any) and validated content. */
  async function markdownBody(request: FastifyRequest, userId: string) {
    const text = typeof request.body === 'string' ? request.body : '';
    const { title, content } = splitTitle(await markdown.toDocument(text, userId));
    return { title, content: writer.validate(content) };
  }

  function sendMarkdown(reply: FastifyReply, row: DocumentRecord, text: string, status = 200) {
    return reply
      .status(status)
      .header('etag', etagOf(row.version))
      .header('cache-control', 'private, no-cache')
      .header('vary', 'accept')
      .type('text/markdown; charset=utf-8')
      .send(text);
  }

  app.get('/', async (request, reply) => {
    const page = parsePageQuery(request.query);
    const { userId } = await requireUser(request);
    const { rows, next } = await listDocuments(ctx, userId, page);
    linkNextPage(request, reply, next);
    return reply.header('cache-control', 'private, no-cache').send(rows.map(presentSummary));
  });

  app.post('/', async (request, reply) => {
    if (isMarkdownBody(request)) {
      const { userId } = await requireUser(request);
      const { title, content } = await markdownBody(request, userId);
      const row = await writer.create({ ownerId: userId, title, content, source: 'rest' });
      return sendDocument(request, reply, row, 201);
    }
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
    if (wantsMarkdown(request.headers.accept)) {
      const { userId, sessionId, apiToken } = await requireUser(request);
      const row = await getDocument(ctx, userId, id, apiToken ? {} : { sessionId });
      return sendMarkdown(reply, row, await markdown.toMarkdown(row.title, row.content));
    }
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
    const expectedVersions = parseIfMatch(request.headers['if-match']);
    if (isMarkdownBody(request)) {
      // Signed in before the conversion, which costs a worker's time.
      const { userId, sessionId, apiToken } = await requireUser(request);
      const { title, content } = await markdownBody(request, userId);
      const row = await writer.update({
        userId,
        documentId: id,
        title,
        content,
        source: 'rest',
        expectedVersions,
        sessionId: apiToken ? undefined : sessionId,
      });
      return sendDocument(request, reply, row);
    }
    const body = parseInput(updateBodySchema, request.body);
    const content = validContent(body.content);
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
