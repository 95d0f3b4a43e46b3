import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_ROUTES } from '../api-tokens';
import { startTestServer, type TestServer } from '../test/server';
import { OPERATIONS } from './catalog';

let server: TestServer;
/** Every /api route the server registered (`app.routeList`), `METHOD /path`, HEAD left out. */
const routes = new Set<string>();

beforeAll(async () => {
  server = await startTestServer();
  for (const { method, url } of server.app.routeList) {
    // Fastify registers a prefix's root route both with and without the trailing slash.
    const path = url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url;
    if (path.startsWith('/api/') || path === '/api') routes.add(`${method} ${path}`);
  }
});
afterAll(() => server?.close());

type OpenApi = {
  openapi: string;
  paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>;
};

async function fetchDocument(): Promise<OpenApi> {
  const res = await server.request<OpenApi>('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/json');
  return res.body;
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it("holds every /api route in the server's route table, and nothing else", async () => {
    expect(routes.size).toBeGreaterThan(50);
    const document = await fetchDocument();
    const documented = new Set<string>();
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) {
        documented.add(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
      }
    }
    const missing = [...routes].filter((route) => !documented.has(route));
    expect(missing, 'routes missing from src/server/openapi/catalog.ts').toEqual([]);
    const stale = [...documented].filter((route) => !routes.has(route));
    expect(stale, 'documented routes the server does not have').toEqual([]);
    expect(Object.keys(OPERATIONS).sort()).toEqual([...documented].sort());
  });

  it('says which routes take API tokens, with their scopes, and that the others do not', async () => {
    const document = await fetchDocument();
    const read = document.paths['/api/documents/{id}']!.get!;
    expect(read.security).toContainEqual({ apiToken: ['read', 'write', 'comment', 'suggest'] });
    const write = document.paths['/api/documents/{id}']!.patch!;
    expect(write.security).toContainEqual({ apiToken: ['write'] });
    const password = document.paths['/api/auth/user']!.put!;
    expect(password.security).toEqual([{ session: [] }]);
    for (const key of Object.keys(TOKEN_ROUTES)) expect(routes.has(key), key).toBe(true);
  });
});

describe('paging and idempotency in the OpenAPI document', () => {
  type Parameter = { name: string; in: string };
  type Described = {
    parameters: Parameter[];
    responses: Record<string, { headers?: Record<string, unknown> }>;
  };

  it('gives the paged lists limit and cursor and the Link header, and the creates an Idempotency-Key', async () => {
    const document = (await fetchDocument()) as unknown as {
      paths: Record<string, Record<string, Described>>;
    };
    const list = document.paths['/api/documents']!.get!;
    expect(list.parameters.map((p) => `${p.in}:${p.name}`)).toEqual(['query:limit', 'query:cursor']);
    expect(list.responses['200']!.headers).toHaveProperty('Link');
    const create = document.paths['/api/documents']!.post!;
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
    );
    const patch = document.paths['/api/documents/{id}']!.patch!;
    expect(patch.parameters.map((p) => p.name)).not.toContain('Idempotency-Key');
  });
});

describe('Markdown in the OpenAPI document', () => {
  it('offers text/markdown on reading and writing a document', async () => {
    type Op = {
      requestBody?: { content: Record<string, unknown> };
      responses: Record<string, { content?: Record<string, unknown> }>;
    };
    const document = (await fetchDocument()) as unknown as { paths: Record<string, Record<string, Op>> };
    const one = document.paths['/api/documents/{id}']!;
    expect(Object.keys(one.get!.responses['200']!.content ?? {})).toContain('text/markdown');
    expect(Object.keys(one.patch!.requestBody!.content)).toEqual(['application/json', 'text/markdown']);
    expect(Object.keys(document.paths['/api/documents']!.post!.requestBody!.content)).toContain(
      'text/markdown',
    );
  });
});
