import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectCollabClient, waitFor } from '../collab/testing';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { MCP_PATH } from '../../shared/constants';
import type { ApiTokenCreated, ApiTokenScope } from '../../shared/schemas/api-tokens';
import type { RichTextDoc, RichTextNode } from '../../shared/schemas/richText';
import { acceptAllSuggestions } from '../../shared/suggestions/resolve';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startTestServer();
  [alice, bob, admin] = await Promise.all([
    createUser(server, { fullName: 'Alice Writer' }),
    createUser(server, { fullName: 'Bob Other' }),
    createUser(server, { role: 'admin' }),
  ]);
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});
afterAll(() => server?.close());

async function makeToken(user: TestUser, scopes: ApiTokenScope[]): Promise<ApiTokenCreated> {
  const res = await server.request('POST', '/api/me/api-tokens', {
    token: user.token,
    body: { name: `mcp ${scopes.join('+')}`, scopes },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as ApiTokenCreated;
}

function transportFor(secret: string | undefined): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(`${server.url}${MCP_PATH}`), {
    requestInit: secret ? { headers: { authorization: `Bearer ${secret}` } } : {},
  });
}

async function connect(secret: string): Promise<Client> {
  const client = new Client({ name: 'quillwright-test', version: '1.0.0' });
  await client.connect(transportFor(secret));
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A tool's JSON answer (it must not be an error). */
async function answer<T = any>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(client, name, args);
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError, text).toBeFalsy();
  return result.structuredContent as T;
}

/** A tool's refusal: isError, with the message and code as text. */
async function refusal(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(client, name, args);
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
}

async function storedContent(user: TestUser, id: string) {
  const res = await server.request('GET', `/api/documents/${id}`, { token: user.token });
  expect(res.status, res.text).toBe(200);
  return { content: res.body.content as RichTextDoc, etag: res.headers.get('etag')! };
}

async function exportedMarkdown(user: TestUser, id: string): Promise<string> {
  const res = await server.request('GET', `/api/documents/${id}/export?format=md`, { token: user.token });
  expect(res.status).toBe(200);
  return res.text;
}

function textNodes(nodes: readonly RichTextNode[]): RichTextNode[] {
  return nodes.flatMap((node) => (node.type === 'text' ? [node] : textNodes(node.content ?? [])));
}

const TOOLS = [
  'append_to_document',
  'comment',
  'create_document',
  'list_documents',
  'list_versions',
  'propose_edit',
  'read_document',
  'search_documents',
];

describe('the MCP endpoint with a personal API token', () => {
  it('connects with the official client, lists the tools and the recent-documents resource, and runs each tool', async () => {
    const { token } = await makeToken(alice, ['write']);
    const client = await connect(token);
    expect(client.getServerVersion()?.name).toBe('quillwright');

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS);
    expect(tools.find((tool) => tool.name === 'read_document')!.inputSchema.required).toEqual(['id']);

    const created = await answer<{ id: string }>(client, 'create_document', {
      title: 'Harbour notes',
      markdown: '## Tides\n\nThe tide turns at noon in the albatross bay.\n\n## Boats\n\n- Dinghy\n- Ketch',
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);

    const read = await answer(client, 'read_document', { id: created.id });
    expect(read.title).toBe('Harbour notes');
    expect(read.markdown).toContain('The tide turns at noon in the albatross bay.');
    expect(read.markdown).toContain('- Dinghy');
    expect(read.headings).toEqual([
      { level: 2, text: 'Tides' },
      { level: 2, text: 'Boats' },
    ]);
    expect(read.pending_suggestions).toBe(false);

    const appended = await answer(client, 'append_to_document', {
      id: created.id,
      markdown: '### Weather\n\nFog **most** mornings.',
    });
    expect(appended).toMatchObject({ appended_blocks: 2, as_suggestions: false });
    expect(await exportedMarkdown(alice, created.id)).toContain('### Weather\n\nFog **most** mornings.');

    const found = await answer(client, 'search_documents', { query: 'albatross' });
    expect(found.results).toHaveLength(1);
    expect(found.results[0]).toMatchObject({ id: created.id, title: 'Harbour notes' });
    expect(found.results[0].snippet).toContain('**albatross**');

    const listed = await answer(client, 'list_documents', {});
    expect(listed.documents[0]).toMatchObject({ id: created.id, title: 'Harbour notes' });
    expect(typeof listed.documents[0].updated_at).toBe('string');

    const saved = await server.request('POST', `/api/documents/${created.id}/versions`, {
      token: alice.token,
      body: { name: 'Before the storm' },
    });
    expect(saved.status, saved.text).toBe(201);
    const versions = await answer(client, 'list_versions', { id: created.id });
    expect(versions.versions.map((version: { name: string | null }) => version.name)).toContain(
      'Before the storm',
    );

    const proposed = await answer(client, 'propose_edit', {
      id: created.id,
      find: 'at noon',
      replace: 'at dusk',
    });
    expect(proposed.author_name).toBe('the agent of Alice Writer');

    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['quillwright://documents/recent']);
    const recent = await client.readResource({ uri: 'quillwright://documents/recent' });
    const listedInResource = JSON.parse((recent.contents[0] as { text: string }).text) as { id: string }[];
    expect(listedInResource.map((doc) => doc.id)).toContain(created.id);
  });

  it('pages list_documents with next_cursor', async () => {
    const user = await createUser(server);
    for (let index = 0; index < 21; index++) {
      const res = await server.request('POST', '/api/documents', {
        token: user.token,
        body: { title: `Page doc ${index}` },
      });
      expect(res.status).toBe(201);
    }
    const client = await connect((await makeToken(user, ['read'])).token);
    const first = await answer(client, 'list_documents', {});
    expect(first.documents).toHaveLength(20);
    expect(first.total).toBe(21);
    expect(first.next_cursor).toBe('20');
    const second = await answer(client, 'list_documents', { cursor: first.next_cursor });
    expect(second.documents).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    expect(await refusal(client, 'list_documents', { cursor: 'abc' })).toContain('validation_failed');
  });

  it('propose_edit records suggestions by the agent of the owner, and the text changes only once they are accepted', async () => {
    const writeClient = await connect((await makeToken(alice, ['write'])).token);
    const { id } = await answer<{ id: string }>(writeClient, 'create_document', {
      title: 'Letter',
      markdown: 'Dear committee, the quick brown fox is late again.\n\nKind regards.',
    });
    const before = await exportedMarkdown(alice, id);

    const client = await connect((await makeToken(alice, ['suggest'])).token);
    const proposed = await answer(client, 'propose_edit', {
      id,
      find: 'the quick brown fox is late',
      replace: 'the quick red fox is early',
    });

    // The text as it stands is unchanged: the export and read_document show the old words.
    expect(await exportedMarkdown(alice, id)).toBe(before);
    const read = await answer(client, 'read_document', { id });
    expect(read.markdown).toContain('the quick brown fox is late again.');
    expect(read.pending_suggestions).toBe(true);

    // What is stored holds the tracked changes, word by word, by "the agent of Alice Writer".
    const { content, etag } = await storedContent(alice, id);
    const marked = textNodes(content.content).filter((node) =>
      node.marks?.some((mark) => mark.type === 'insertion' || mark.type === 'deletion'),
    );
    expect(marked.map((node) => [node.marks!.find((m) => m.type !== 'bold')!.type, node.text])).toEqual([
      ['deletion', 'brown'],
      ['insertion', 'red'],
      ['deletion', 'late'],
      ['insertion', 'early'],
    ]);
    for (const node of marked) {
      expect(node.marks![0]!.attrs).toMatchObject({
        id: proposed.suggestion_id,
        author_name: 'the agent of Alice Writer',
        source: 'ai',
      });
    }

    // Accepting them (the editor's rule over stored JSON) and saving through the REST route gives the new text.
    const accepted = await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      headers: { 'if-match': etag },
      body: { content: acceptAllSuggestions(content) },
    });
    expect(accepted.status, accepted.text).toBe(200);
    const after = await exportedMarkdown(alice, id);
    expect(after).toContain('Dear committee, the quick red fox is early again.');
    expect(after).not.toContain('brown');
  });

  it('propose_edit refuses text it cannot place exactly once', async () => {
    const client = await connect((await makeToken(alice, ['write'])).token);
    const { id } = await answer<{ id: string }>(client, 'create_document', {
      title: 'Echo',
      markdown: 'One echo.\n\nTwo echo.',
    });
    expect(await refusal(client, 'propose_edit', { id, find: 'echo', replace: 'sound' })).toContain(
      'text_ambiguous',
    );
    expect(await refusal(client, 'propose_edit', { id, find: 'three', replace: 'four' })).toContain(
      'text_not_found',
    );
    expect(await refusal(client, 'propose_edit', { id, find: 'One', replace: 'One' })).toContain(
      'validation_failed',
    );
  });

  it('a suggest-only token appends as suggestions and cannot create', async () => {
    const writeClient = await connect((await makeToken(alice, ['write'])).token);
    const { id } = await answer<{ id: string }>(writeClient, 'create_document', {
      title: 'Draft',
      markdown: 'First line.',
    });
    const client = await connect((await makeToken(alice, ['suggest'])).token);
    expect(await refusal(client, 'create_document', { title: 'No', markdown: 'x' })).toContain(
      'api_token_suggest_only',
    );
    const appended = await answer(client, 'append_to_document', { id, markdown: 'A proposed ending.' });
    expect(appended.as_suggestions).toBe(true);
    const { content } = await storedContent(alice, id);
    const last = textNodes(content.content).at(-1)!;
    expect(last.text).toBe('A proposed ending.');
    expect(last.marks?.[0]).toMatchObject({
      type: 'insertion',
      attrs: { author_name: 'the agent of Alice Writer' },
    });
    expect(await exportedMarkdown(alice, id)).not.toContain('A proposed ending.');
  });

  it('writes an open document through its live copy: the editor sees the appended text and its own typing stays', async () => {
    const client = await connect((await makeToken(alice, ['write'])).token);
    const { id } = await answer<{ id: string }>(client, 'create_document', {
      title: 'Live',
      markdown: 'Opening line.',
    });
    const editor = await connectCollabClient({ serverUrl: server.url, documentId: id, token: alice.token });
    try {
      editor.appendParagraph('Typed in the editor.');
      // read_document reads the live copy, newer than the stored row.
      await waitFor(() => editor.paragraphs().includes('Typed in the editor.'));
      expect((await answer(client, 'read_document', { id })).markdown).toContain('Typed in the editor.');
      await answer(client, 'append_to_document', { id, markdown: 'Added by the agent.' });
      await waitFor(() => editor.paragraphs().includes('Added by the agent.'), 5_000, 'the live append');
      expect(editor.paragraphs()).toEqual(['Opening line.', 'Typed in the editor.', 'Added by the agent.']);
      await answer(client, 'propose_edit', { id, find: 'Opening line', replace: 'First line' });
      await waitFor(() => editor.paragraphs()[0] !== 'Opening line.', 5_000, 'the live suggestion');
    } finally {
      editor.destroy();
    }
    expect(await exportedMarkdown(alice, id)).toContain(
      'Opening line.\n\nTyped in the editor.\n\nAdded by the agent.',
    );
  });

  it("refuses a read token's write tools, saying why, and changes nothing", async () => {
    const writeClient = await connect((await makeToken(alice, ['write'])).token);
    const { id } = await answer<{ id: string }>(writeClient, 'create_document', {
      title: 'Read only here',
      markdown: 'Keep me.',
    });
    const before = await exportedMarkdown(alice, id);
    const client = await connect((await makeToken(alice, ['read'])).token);
    for (const [tool, args] of [
      ['create_document', { title: 'No', markdown: 'x' }],
      ['append_to_document', { id, markdown: 'More.' }],
      ['propose_edit', { id, find: 'Keep', replace: 'Drop' }],
    ] as const) {
      const text = await refusal(client, tool, args);
      expect(text, tool).toContain('insufficient_scope');
      expect(text, tool).toContain('scope');
    }
    expect(await exportedMarkdown(alice, id)).toBe(before);
    expect((await answer(client, 'read_document', { id })).markdown).toBe('Keep me.');
  });

  it("answers another user's document as not found, on every tool", async () => {
    const bobsClient = await connect((await makeToken(bob, ['write'])).token);
    const { id } = await answer<{ id: string }>(bobsClient, 'create_document', {
      title: 'Bob private albatross',
      markdown: 'Secret words.',
    });
    const client = await connect((await makeToken(alice, ['write'])).token);
    for (const [tool, args] of [
      ['read_document', { id }],
      ['append_to_document', { id, markdown: 'Intrusion.' }],
      ['propose_edit', { id, find: 'Secret', replace: 'Public' }],
      ['list_versions', { id }],
      ['comment', { id, quote: 'Secret', body: 'Peeking.' }],
      ['read_document', { id: 'not-a-uuid' }],
    ] as const) {
      expect(await refusal(client, tool, args), tool).toContain('document_not_found');
    }
    const found = await answer(client, 'search_documents', { query: 'private' });
    expect(JSON.stringify(found)).not.toContain(id);
    expect(JSON.stringify(await answer(client, 'list_documents', {}))).not.toContain(id);
    expect(await exportedMarkdown(bob, id)).toContain('Secret words.');
  });
});

describe('the comment tool', () => {
  it("opens a thread on the quoted passage under the owner's name, seen through the REST threads API and the text", async () => {
    const client = await connect((await makeToken(alice, ['comment'])).token);
    const res = await server.request('POST', '/api/documents', {
      token: alice.token,
      body: {
        title: 'Reviewed',
        content: {
          type: 'doc',
          content: [
            { type: 'paragraph', content: [{ type: 'text', text: 'The albatross glides for hours.' }] },
          ],
        },
      },
    });
    const id = res.body.id as string;
    const made = await answer<{ thread_id: string; quote: string }>(client, 'comment', {
      id,
      quote: 'glides for hours',
      body: 'Source for this?',
    });
    expect(made.quote).toBe('glides for hours');
    const threads = await server.request('GET', `/api/documents/${id}/threads`, { token: alice.token });
    expect(threads.status).toBe(200);
    expect(threads.body.threads).toEqual([
      expect.objectContaining({
        id: made.thread_id,
        anchor: expect.objectContaining({ quote: 'glides for hours' }),
        comments: [expect.objectContaining({ body: 'Source for this?' })],
      }),
    ]);
    expect(JSON.stringify(threads.body.threads[0].comments[0])).toContain('Alice Writer');
    // The passage carries the thread's mark in the stored text.
    const { content } = await storedContent(alice, id);
    const marked = textNodes(content.content).find((node) => node.text === 'glides for hours');
    expect(marked?.marks?.map((mark) => mark.type)).toContain('comment');
    expect(JSON.stringify(marked?.marks)).toContain(made.thread_id);
  });

  it('refuses a read-only token with a clear error, and text that is not in the document', async () => {
    const writer = await connect((await makeToken(alice, ['write'])).token);
    const { id } = await answer<{ id: string }>(writer, 'create_document', {
      title: 'Quiet',
      markdown: 'Calm seas.',
    });
    const reader = await connect((await makeToken(alice, ['read'])).token);
    const refused = await refusal(reader, 'comment', { id, quote: 'Calm', body: 'Hi' });
    expect(refused).toContain('insufficient_scope');
    expect(refused).toContain('comment scope');
    expect(await refusal(writer, 'comment', { id, quote: 'Stormy', body: 'Hi' })).toContain(
      'anchor_not_found',
    );
    const threads = await server.request('GET', `/api/documents/${id}/threads`, { token: alice.token });
    expect(threads.body.threads).toEqual([]);
  });
});

describe('who may open /mcp', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  };
  const post = (authorization: string | undefined) =>
    fetch(`${server.url}${MCP_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(authorization ? { authorization } : {}),
      },
      body: JSON.stringify(initialize),
    });

  it('refuses no token and a session sign-in token with 401 and WWW-Authenticate: Bearer', async () => {
    for (const authorization of [undefined, `Bearer ${alice.token}`, 'Bearer qw_pat_not-a-real-token']) {
      const res = await post(authorization);
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const body = (await res.json()) as { message: string; code: string };
      expect(typeof body.message).toBe('string');
      expect(body.code).toMatch(/^(api_token_missing|invalid_api_token)$/);
    }
    const client = new Client({ name: 'quillwright-test', version: '1.0.0' });
    await expect(client.connect(transportFor(undefined))).rejects.toMatchObject({ code: 401 });
  });

  it('answers a token with its rate limit, and GET/DELETE with 405 (stateless: no session stream)', async () => {
    const { token } = await makeToken(alice, ['read']);
    const res = await post(`Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('120');
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThan(120);
    const answerBody = (await res.json()) as { result: { serverInfo: { name: string } } };
    expect(answerBody.result.serverInfo.name).toBe('quillwright');
    for (const method of ['GET', 'DELETE']) {
      const other = await fetch(`${server.url}${MCP_PATH}`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      });
      expect(other.status, method).toBe(405);
      expect(other.headers.get('allow')).toBe('POST');
    }
  });

  it('refuses a revoked token at once, on the next call of an open client', async () => {
    const created = await makeToken(alice, ['read']);
    const client = await connect(created.token);
    await answer(client, 'list_documents', {});
    const revoked = await server.request('DELETE', `/api/me/api-tokens/${created.id}`, {
      token: alice.token,
    });
    expect(revoked.status).toBe(204);
    await expect(client.callTool({ name: 'list_documents', arguments: {} })).rejects.toMatchObject({
      code: 401,
    });
    const res = await post(`Bearer ${created.token}`);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('invalid_api_token');
  });

  it('refuses every token while the admin has turned tokens off', async () => {
    const { token } = await makeToken(alice, ['write']);
    const off = await server.request('PUT', '/api/admin/api-tokens', {
      token: admin.token,
      body: { enabled: false },
    });
    expect(off.status).toBe(200);
    try {
      const res = await post(`Bearer ${token}`);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('api_tokens_disabled');
    } finally {
      const on = await server.request('PUT', '/api/admin/api-tokens', {
        token: admin.token,
        body: { enabled: true },
      });
      expect(on.status).toBe(200);
    }
    expect((await post(`Bearer ${token}`)).status).toBe(200);
  });
});
