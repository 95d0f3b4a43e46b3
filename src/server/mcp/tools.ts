import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { createThread } from '../comments';
import { users } from '../db/schema';
import { authorizeDocument, documentForUser, tokenMay, type DocumentAbility } from '../documents';
import { AppError, badRequest, forbidden, notFound, preconditionFailed } from '../errors';
import { convertFile } from '../imports';
import { library, search } from '../search';
import { APP_VERSION } from '../runtime/version';
import {
  MCP_EDIT_TEXT_MAX_LENGTH,
  MCP_LIST_PAGE_SIZE,
  MCP_SEARCH_LIMIT,
  SEARCH_MAX_QUERY_LENGTH,
} from '../../shared/constants';
import type { SuggestionAttributes } from '../../shared/editor/suggestion-marks';
import { repairRichText } from '../../shared/editor/validate';
import { documentToMarkdownBody } from '../../shared/export/markdown';
import type { ApiTokenScope } from '../../shared/schemas/api-tokens';
import { MAX_COMMENT_LENGTH, MAX_COMMENT_QUOTE_LENGTH } from '../../shared/schemas/comments';
import { MAX_DOCUMENT_TITLE_LENGTH } from '../../shared/schemas/documents';
import type { RichTextDoc, RichTextNode } from '../../shared/schemas/richText';
import { hasSuggestions, rejectAllSuggestions } from '../../shared/suggestions/resolve';
import { markAllInserted, proposeReplacement } from './suggest';

/** Who the MCP request acts for: the personal API token's user, narrowed to its scopes. */
export interface McpCaller {
  userId: string;
  tokenId: string;
  scopes: readonly ApiTokenScope[];
}

/** How often a write re-reads the document when someone else changed it in between (If-Match refused). */
const WRITE_ATTEMPTS = 3;
/** The longest author name a suggestion mark may carry (the validator's short attribute). */
const AUTHOR_NAME_MAX_LENGTH = 200;
const RECENT_DOCUMENTS_URI = 'quillwright://documents/recent';

const documentId = z
  .string()
  .describe('The document id (a UUID, as search_documents and list_documents give it)');
const markdownText = z.string().describe('Markdown (CommonMark with tables and task lists)');

const json = (data: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(data, null, 2) }],
  structuredContent: data,
});

const refusal = (message: string, code: string): CallToolResult => ({
  content: [{ type: 'text', text: `${message} (${code})` }],
  isError: true,
});

/** ts_headline's HTML (escaped text, matches in <mark>) as plain text with the matches in **bold**. */
function plainSnippet(html: string): string {
  return html
    .replace(/<\/?mark>/g, '**')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function headingsOf(nodes: readonly RichTextNode[]): { level: number; text: string }[] {
  const found: { level: number; text: string }[] = [];
  const textOf = (node: RichTextNode): string =>
    node.type === 'text' ? (node.text ?? '') : (node.content ?? []).map(textOf).join('');
  const walk = (list: readonly RichTextNode[]) => {
    for (const node of list) {
      if (node.type === 'heading') found.push({ level: Number(node.attrs?.level ?? 1), text: textOf(node) });
      else if (node.content) walk(node.content);
    }
  };
  walk(nodes);
  return found;
}

function parseCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw badRequest('cursor: use the next_cursor a previous page gave');
  return Number(cursor);
}

/**
 * One MCP server per request (stateless Streamable HTTP): its tools act as the token's user, and each checks
 * the token's scopes with the same policy as the REST routes (tokenMay), then the user's role on the document
 * (authorizeDocument / documentForUser: another user's document is "not found"). Writes go through the one
 * document writer, with the source `mcp`.
 */
export function createMcpServer(app: FastifyInstance, caller: McpCaller): McpServer {
  const { userId, scopes } = caller;
  const deps = app.deps;
  const writer = deps.documentWriter;
  const server = new McpServer({ name: 'quillwright', version: APP_VERSION });

  const requireScope = (tool: string, ability: DocumentAbility, scope: ApiTokenScope) => {
    if (tokenMay(scopes, ability)) return;
    throw forbidden(
      `This token's scopes (${scopes.join(', ')}) do not allow ${tool}: it needs the ${scope} scope.`,
      'insufficient_scope',
    );
  };

  const guarded =
    <A>(run: (args: A) => Promise<CallToolResult>) =>
    async (args: A): Promise<CallToolResult> => {
      try {
        return await run(args);
      } catch (error) {
        if (error instanceof AppError) return refusal(error.message, error.code);
        app.log.error({ err: error }, 'MCP tool failed');
        return refusal('Internal error', 'internal_error');
      }
    };

  const recentDocuments = async (offset: number) => {
    const page = await library(app.database.exec, userId, {
      sort: 'updated',
      limit: MCP_LIST_PAGE_SIZE,
      offset,
    });
    const next = offset + page.documents.length;
    return {
      documents: page.documents.map((doc) => ({ id: doc.id, title: doc.title, updated_at: doc.updated_at })),
      total: page.total,
      next_cursor: next < page.total && page.documents.length > 0 ? String(next) : null,
    };
  };

  /** The document's body now: the live one when it is open in the editor (newer than the stored row). */
  const currentBody = (id: string, stored: unknown): RichTextDoc =>
    repairRichText(app.liveDocuments.currentContent(id) ?? stored).doc;

  const markdownToBlocks = async (markdown: string): Promise<RichTextNode[]> => {
    if (markdown.trim() === '') return [];
    const imported = await convertFile('document.md', Buffer.from(markdown, 'utf8'), {
      owner: userId,
      whole: true,
      metrics: deps.metrics,
    });
    return imported.content.content;
  };

  const agentAttributes = async (): Promise<SuggestionAttributes> => {
    const [user] = await deps.db
      .select({ fullName: users.fullName, email: users.email })
      .from(users)
      .where(eq(users.id, userId));
    const owner = user?.fullName.trim() || user?.email.split('@')[0] || 'a writer';
    return {
      id: `mcp-${randomUUID()}`,
      author_id: `agent-${userId}`,
      author_name: `the agent of ${owner}`.slice(0, AUTHOR_NAME_MAX_LENGTH),
      source: 'ai',
      created_at: new Date().toISOString(),
    };
  };

  /**
   * Reads the document the user may write, changes its body with `change` and writes it through the writer
   * with If-Match on the version read, so an edit made meanwhile is never overwritten: it is read again.
   */
  const changeBody = async (id: string, change: (body: RichTextDoc) => RichTextDoc) => {
    for (let attempt = 1; ; attempt++) {
      const document = await documentForUser(deps, userId, id, 'write', 'document_not_found');
      const content = writer.validate(change(currentBody(id, document.content)));
      try {
        return await writer.update({
          userId,
          documentId: id,
          content,
          source: 'mcp',
          expectedVersions: [document.version],
        });
      } catch (error) {
        if (!(error instanceof AppError && error.status === 412) || attempt >= WRITE_ATTEMPTS) throw error;
      }
    }
  };

  server.registerTool(
    'search_documents',
    {
      title: 'Search documents',
      description:
        "Full-text search of the user's documents, best matches first: each hit's id, title and a snippet " +
        'with the matched words in **bold**. Needs the read scope.',
      inputSchema: { query: z.string().trim().min(1).max(SEARCH_MAX_QUERY_LENGTH).describe('Words to find') },
      annotations: { readOnlyHint: true },
    },
    guarded(async ({ query }) => {
      requireScope('search_documents', 'read', 'read');
      const hits = await search(app.database.exec, userId, query, MCP_SEARCH_LIMIT);
      return json({
        results: hits.map((hit) => ({
          id: hit.id,
          title: hit.title,
          snippet: plainSnippet(hit.snippet),
          updated_at: hit.updated_at,
        })),
      });
    }),
  );

  server.registerTool(
    'list_documents',
    {
      title: 'List documents',
      description:
        "The user's documents, most recently updated first, a page at a time (pass next_cursor for the " +
        'next page). Needs the read scope.',
      inputSchema: { cursor: z.string().optional().describe('next_cursor from the previous page') },
      annotations: { readOnlyHint: true },
    },
    guarded(async ({ cursor }) => {
      requireScope('list_documents', 'read', 'read');
      return json(await recentDocuments(parseCursor(cursor)));
    }),
  );

  server.registerTool(
    'read_document',
    {
      title: 'Read a document',
      description:
        'A document as Markdown (its text as it stands, without pending suggestions) with its headings. ' +
        'Needs the read scope.',
      inputSchema: { id: documentId },
      annotations: { readOnlyHint: true },
    },
    guarded(async ({ id }) => {
      requireScope('read_document', 'read', 'read');
      const document = await documentForUser(deps, userId, id, 'read', 'document_not_found');
      const body = currentBody(id, document.content);
      const asItStands = rejectAllSuggestions(body);
      return json({
        id: document.id,
        title: document.title,
        updated_at: document.updatedAt.toISOString(),
        markdown: documentToMarkdownBody(asItStands),
        headings: headingsOf(asItStands.content),
        pending_suggestions: hasSuggestions(body),
      });
    }),
  );

  server.registerTool(
    'create_document',
    {
      title: 'Create a document',
      description: 'Creates a document from a title and Markdown; answers its id. Needs the write scope.',
      inputSchema: {
        title: z.string().max(MAX_DOCUMENT_TITLE_LENGTH).describe('The title (blank: "Untitled Document")'),
        markdown: markdownText.describe('The body, in Markdown'),
      },
    },
    guarded(async ({ title, markdown }) => {
      if (!tokenMay(scopes, 'write') && tokenMay(scopes, 'suggest')) {
        throw forbidden(
          'This token may only suggest changes, and a new document is not a suggestion: use a token with the write scope.',
          'api_token_suggest_only',
        );
      }
      requireScope('create_document', 'write', 'write');
      const blocks = await markdownToBlocks(markdown);
      const document = await writer.create({
        ownerId: userId,
        title,
        content: blocks.length > 0 ? writer.validate({ type: 'doc', content: blocks }) : undefined,
        source: 'mcp',
      });
      return json({ id: document.id, title: document.title });
    }),
  );

  server.registerTool(
    'append_to_document',
    {
      title: 'Append to a document',
      description:
        'Adds Markdown blocks at the end of a document. With the write scope they are written; with the ' +
        'suggest scope they are added as suggestions the owner accepts or rejects.',
      inputSchema: { id: documentId, markdown: markdownText.describe('The blocks to add, in Markdown') },
    },
    guarded(async ({ id, markdown }) => {
      const direct = tokenMay(scopes, 'write');
      if (!direct) requireScope('append_to_document', 'suggest', 'write');
      // The user's access first, so another user's document is "not found" before anything is converted.
      await documentForUser(deps, userId, id, 'write', 'document_not_found');
      const blocks = await markdownToBlocks(markdown);
      if (blocks.length === 0) throw badRequest('markdown: there is nothing to append');
      const added = direct ? blocks : markAllInserted(blocks, await agentAttributes());
      const document = await changeBody(id, (body) => ({ ...body, content: [...body.content, ...added] }));
      return json({
        id: document.id,
        appended_blocks: added.length,
        as_suggestions: !direct,
        updated_at: document.updatedAt.toISOString(),
      });
    }),
  );

  server.registerTool(
    'propose_edit',
    {
      title: 'Propose an edit',
      description:
        'Proposes replacing one passage of a document: `find` must occur exactly once (within one paragraph, ' +
        'heading or list item). The change is recorded as a suggestion by "the agent of" the token\'s owner, ' +
        'never applied directly: the owner accepts or rejects it. Needs the suggest or write scope.',
      inputSchema: {
        id: documentId,
        find: z.string().min(1).max(MCP_EDIT_TEXT_MAX_LENGTH).describe('The exact text to replace'),
        replace: z
          .string()
          .max(MCP_EDIT_TEXT_MAX_LENGTH)
          .describe('The text to put in its place (empty: propose deleting it)'),
      },
    },
    guarded(async ({ id, find, replace }) => {
      if (!tokenMay(scopes, 'write')) requireScope('propose_edit', 'suggest', 'suggest');
      if (find === replace)
        throw badRequest('replace: it is the same as find, so there is nothing to propose');
      if (/[\n\r]/u.test(find) || /[\n\r]/u.test(replace)) {
        throw badRequest('find and replace are text within one paragraph: no line breaks');
      }
      await documentForUser(deps, userId, id, 'write', 'document_not_found');
      const attrs = await agentAttributes();
      const document = await changeBody(id, (body) => {
        const result = proposeReplacement(body, find, replace, attrs);
        if (result.ok) return result.doc;
        if (result.reason === 'not_found') {
          throw notFound(
            'The text to replace was not found (it must be within one paragraph and outside pending suggestions).',
            'text_not_found',
          );
        }
        throw preconditionFailed(
          `The text to replace occurs ${result.count} times; include more of the words around it.`,
          'text_ambiguous',
        );
      });
      return json({ id: document.id, suggestion_id: attrs.id, author_name: attrs.author_name });
    }),
  );

  server.registerTool(
    'comment',
    {
      title: 'Comment on a passage',
      description:
        'Opens a comment thread on a passage of a document, as a person does in the editor: `quote` is the exact ' +
        'text to comment on (within one paragraph, as read_document shows it), `body` the comment. It appears ' +
        "beside the passage under the token owner's name. Needs the comment scope (write and suggest include it).",
      inputSchema: {
        id: documentId,
        quote: z
          .string()
          .min(1)
          .max(MAX_COMMENT_QUOTE_LENGTH)
          .describe('The exact text to comment on; the first place it occurs is marked'),
        body: z.string().min(1).max(MAX_COMMENT_LENGTH).describe('The comment'),
      },
    },
    guarded(async ({ id, quote, body }) => {
      requireScope('comment', 'comment', 'comment');
      if (/[\n\r]/u.test(quote)) throw badRequest('quote is text within one paragraph: no line breaks');
      // Another user's document is "not found" here as in the other tools.
      await authorizeDocument(deps, { kind: 'user', userId }, id, 'comment', 'document_not_found');
      const { thread } = await createThread(deps, { kind: 'user', userId }, id, {
        id: randomUUID(),
        anchor: { quote },
        body,
      });
      return json({
        id,
        thread_id: thread.id,
        quote: thread.anchor.quote,
        comment_id: thread.comments[0]?.id ?? null,
        created_at: thread.createdAt,
      });
    }),
  );

  server.registerTool(
    'list_versions',
    {
      title: 'List versions',
      description:
        "A document's saved versions, newest first: id, when, why (automatic, manual, restore…), its name " +
        'and word count. Needs the read scope.',
      inputSchema: { id: documentId },
      annotations: { readOnlyHint: true },
    },
    guarded(async ({ id }) => {
      requireScope('list_versions', 'seeVersions', 'read');
      await authorizeDocument(deps, { kind: 'user', userId }, id, 'seeVersions', 'document_not_found');
      const versions = await app.versions.list(userId, id);
      return json({
        versions: versions.map((version) => ({
          id: version.id,
          created_at: version.createdAt.toISOString(),
          reason: version.reason,
          name: version.name,
          word_count: version.wordCount,
        })),
      });
    }),
  );

  server.registerResource(
    'recent-documents',
    RECENT_DOCUMENTS_URI,
    {
      title: 'Recent documents',
      description: "The user's most recently updated documents (id, title, updated_at)",
      mimeType: 'application/json',
    },
    async (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify((await recentDocuments(0)).documents, null, 2),
        },
      ],
    }),
  );

  return server;
}
