import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

/**
 * A program that knows the API only from `/api/openapi.json`: it finds each call by its operationId, fills the
 * path template, sends only the parameters, headers and body properties the document declares (the required
 * ones included), and expects the status the document promises. The main calls of a personal-token client run
 * through it: make a token, create, read (JSON and Markdown), change with If-Match, page through the list
 * following its Link header, retry a create with an Idempotency-Key, delete.
 */

interface JsonSchema {
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
}
interface Operation {
  operationId: string;
  parameters?: { name: string; in: 'path' | 'query' | 'header'; required?: boolean }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { headers?: Record<string, unknown> }>;
}
type Paths = Record<string, Record<string, Operation>>;

interface CallOptions {
  path?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  json?: Record<string, unknown>;
  markdown?: string;
  token: string;
}

class DrivenClient {
  constructor(
    private readonly baseUrl: string,
    private readonly paths: Paths,
  ) {}

  private find(operationId: string): { method: string; template: string; operation: Operation } {
    for (const [template, methods] of Object.entries(this.paths))
      for (const [method, operation] of Object.entries(methods))
        if (operation.operationId === operationId) return { method, template, operation };
    throw new Error(`the OpenAPI document has no operation ${operationId}`);
  }

  /** Sends one call as the document describes it; fails the test when the call does not fit the document. */
  async call(operationId: string, options: CallOptions): Promise<Response> {
    const { method, template, operation } = this.find(operationId);
    const declared = (where: 'path' | 'query' | 'header') =>
      new Map((operation.parameters ?? []).filter((p) => p.in === where).map((p) => [p.name, p]));
    const pathParameters = declared('path');
    const url = template.replace(/\{(\w+)\}/g, (_match, name: string) => {
      expect(pathParameters.has(name), `${operationId}: path parameter ${name}`).toBe(true);
      const value = options.path?.[name];
      if (value === undefined) throw new Error(`${operationId} needs ${name}`);
      return encodeURIComponent(value);
    });
    const query = new URLSearchParams();
    const queryParameters = declared('query');
    for (const [name, value] of Object.entries(options.query ?? {})) {
      expect(queryParameters.has(name), `${operationId}: query parameter ${name}`).toBe(true);
      query.set(name, value);
    }
    const headers: Record<string, string> = { authorization: `Bearer ${options.token}` };
    const headerParameters = declared('header');
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      // Standard HTTP headers (If-Match, Accept) need no declaration; the API's own do.
      if (!['if-match', 'accept'].includes(name.toLowerCase()))
        expect(headerParameters.has(name), `${operationId}: header ${name}`).toBe(true);
      headers[name] = value;
    }
    let body: string | undefined;
    const content = operation.requestBody?.content;
    if (options.json) {
      const schema = content?.['application/json']?.schema;
      expect(schema, `${operationId} takes JSON`).toBeDefined();
      const properties = Object.keys(schema?.properties ?? {});
      for (const name of Object.keys(options.json))
        expect(properties, `${operationId}: body property ${name}`).toContain(name);
      for (const name of schema?.required ?? [])
        expect(Object.keys(options.json), `${operationId}: required ${name}`).toContain(name);
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.markdown !== undefined) {
      expect(content?.['text/markdown'], `${operationId} takes Markdown`).toBeDefined();
      headers['content-type'] = 'text/markdown';
      body = options.markdown;
    } else if (operation.requestBody?.required) {
      throw new Error(`${operationId} needs a body`);
    }
    const search = query.size > 0 ? `?${query}` : '';
    return fetch(`${this.baseUrl}${url}${search}`, { method: method.toUpperCase(), headers, body });
  }

  /** The success status the document promises for the call. */
  promised(operationId: string): number {
    const statuses = Object.keys(this.find(operationId).operation.responses).filter((s) => s !== 'default');
    expect(statuses).toHaveLength(1);
    return Number(statuses[0]);
  }

  /** Calls and checks the answer against the document: the promised status, and a JSON error shape otherwise. */
  async expectSuccess(operationId: string, options: CallOptions): Promise<Response> {
    const response = await this.call(operationId, options);
    if (response.status !== this.promised(operationId)) {
      throw new Error(`${operationId}: ${response.status} ${await response.text()}`);
    }
    return response;
  }
}

let server: TestServer;
let owner: TestUser;
let client: DrivenClient;

beforeAll(async () => {
  server = await startTestServer();
  owner = await createUser(server);
  const document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as { paths: Paths };
  client = new DrivenClient(server.url, document.paths);
});
afterAll(() => server?.close());

describe('a client driven by the OpenAPI document', () => {
  it('runs the main calls of a personal-token program', async () => {
    // A token, made with the browser session as Account Settings does.
    const created = await client.expectSuccess('postApiMeApiTokens', {
      token: owner.token,
      json: { name: 'Sync script', scopes: ['read', 'write'] },
    });
    const { token } = (await created.json()) as { token: string };

    // Create: the retry with the same Idempotency-Key replays the first answer and creates nothing more.
    const idempotent = { token, headers: { 'Idempotency-Key': 'sync-0001' }, json: { title: 'Field notes' } };
    const first = await client.expectSuccess('postApiDocuments', idempotent);
    const { id } = (await first.json()) as { id: string };
    const again = await client.expectSuccess('postApiDocuments', idempotent);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(id);

    // Write Markdown, read it back as JSON (with its ETag) and as Markdown.
    await client.expectSuccess('patchApiDocumentsId', {
      token,
      path: { id },
      markdown: '## Spring\n\nThe **walled** garden.\n',
    });
    const read = await client.expectSuccess('getApiDocumentsId', { token, path: { id } });
    const etag = read.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(JSON.stringify(((await read.json()) as { content: unknown }).content)).toContain('walled');
    const markdown = await client.expectSuccess('getApiDocumentsId', {
      token,
      path: { id },
      headers: { accept: 'text/markdown' },
    });
    expect(await markdown.text()).toContain('The **walled** garden.');

    // If-Match: the current ETag is taken, a stale one is refused with the error shape.
    await client.expectSuccess('patchApiDocumentsId', {
      token,
      path: { id },
      headers: { 'If-Match': etag! },
      json: { title: 'Field notes, spring' },
    });
    const stale = await client.call('patchApiDocumentsId', {
      token,
      path: { id },
      headers: { 'If-Match': etag! },
      json: { title: 'Lost' },
    });
    expect(stale.status).toBe(412);
    expect(Object.keys((await stale.json()) as object).sort()).toEqual(
      expect.arrayContaining(['code', 'message']),
    );

    // Page through the list two at a time, following the Link header the document declares.
    for (const title of ['Two', 'Three', 'Four', 'Five'])
      await client.expectSuccess('postApiDocuments', { token, json: { title } });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.expectSuccess('getApiDocuments', {
        token,
        query: { limit: '2', ...(cursor ? { cursor } : {}) },
      });
      seen.push(...((await page.json()) as { title: string }[]).map((d) => d.title));
      const next = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
      cursor = next ? (new URL(next, server.url).searchParams.get('cursor') ?? undefined) : undefined;
    } while (cursor);
    expect(seen.sort()).toEqual(['Field notes, spring', 'Five', 'Four', 'Three', 'Two']);

    // Delete, and the document is gone for this token.
    await client.expectSuccess('deleteApiDocumentsId', { token, path: { id } });
    expect((await client.call('getApiDocumentsId', { token, path: { id } })).status).toBe(404);
  });
});
