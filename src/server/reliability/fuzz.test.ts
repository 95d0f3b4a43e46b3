import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeDocContent } from '../../shared/schemas/richText';
import { documents } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

/**
 * Request fuzzer over every JSON route (SPEC: bad input gets a clear error, never a 500 and never lost
 * data). Bodies are built from the field names our routes read, filled with wrong types, huge strings,
 * deep nesting and malformed rich-text trees; raw bodies add broken JSON and invalid UTF-8.
 */
const FIELDS = [
  'title',
  'content',
  'email',
  'password',
  'data',
  'refresh_token',
  'token',
  'type',
  'text',
  'style',
  'tone',
  'context',
  'count',
  'topic',
  'documentId',
  'originalText',
  'suggestedText',
  'accepted',
  'priceId',
  'sessionId',
  'isPublic',
  'allowEditing',
  'expiresAt',
  'theme',
  'fontSize',
  'preferences',
  'notifications',
  'full_name',
];

const hugeString = fc.constantFrom('x'.repeat(100_000), '🙂'.repeat(20_000), '\u0000'.repeat(1000));
const deep = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;
const hostileTree = fc.constantFrom<unknown>(
  { type: 'doc', content: [{ type: 'script', content: [] }] },
  {
    type: 'doc',
    content: [{ type: 'heading', attrs: { level: 7 }, content: [{ type: 'text', text: 'h7' }] }],
  },
  {
    type: 'doc',
    content: [
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] },
        ],
      },
    ],
  },
  {
    type: 'doc',
    content: [
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'm', marks: Array.from({ length: 100_000 }, () => ({ type: 'bold' })) },
        ],
      },
    ],
  },
  { type: 'doc', content: [{ type: 'paragraph', attrs: { textAlign: 'middle' } }] },
  { type: 'doc', content: 'not a list' },
  { type: 'doc' },
  deep(200),
  '{"type":"doc","content":[',
);
const value = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: hostileTree },
);
const jsonBody = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 5 }),
  fc.jsonValue({ maxDepth: 2 }),
);
const rawBody = fc.constantFrom(
  '{"title": ',
  '{"title": "\\ud800"}',
  'null',
  '[]',
  '"just a string"',
  '{"__proto__": {"polluted": true}, "title": "x"}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '['.repeat(20_000) + ']'.repeat(20_000),
  `{"content": ${'['.repeat(5_000)}${']'.repeat(5_000)}, "text": ${'{"a":'.repeat(3_000)}1${'}'.repeat(3_000)}}`,
  `{"content": ${'{"type":"doc","content":['.repeat(2_000)}${']}'.repeat(2_000)}}`,
);

// CI runs a short pass; `FUZZ_RUNS=200 npx vitest run src/server/reliability/fuzz.test.ts` a long one.
const JSON_RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 12);
const RAW_RUNS_PER_ROUTE = Math.max(6, Math.ceil(JSON_RUNS_PER_ROUTE / 2));

let server: TestServer;
let owner: TestUser;
let documentId: string;
let cases = 0;

function concretePath(url: string): string {
  return url.replace(/:id\b/g, documentId).replace(/:[a-zA-Z]+/g, '00000000-0000-4000-8000-000000000000');
}

async function expectCleanAnswer(method: string, url: string, init: RequestInit) {
  cases++;
  const response = await fetch(server.url + url, init);
  const text = await response.text();
  expect(response.status, `${method} ${url} → ${response.status} ${text.slice(0, 200)}`).not.toBe(500);
  expect(response.status).toBeLessThan(600);
  if (response.status >= 400) {
    const body = JSON.parse(text) as { message?: unknown; code?: unknown };
    expect(typeof body.message, `${method} ${url}: error without message`).toBe('string');
    expect(typeof body.code, `${method} ${url}: error without code`).toBe('string');
  }
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await createUser(server);
  const [row] = await server.database.db
    .insert(documents)
    .values({ userId: owner.id, title: 'Fuzz target', content: { type: 'doc', content: [] } })
    .returning({ id: documents.id });
  documentId = row!.id;
});

afterAll(async () => {
  console.log(`fuzz: ${cases} requests`);
  await server?.close();
});

describe('request fuzzer', () => {
  it('every JSON route answers malformed input with a JSON 4xx, never a 500', async () => {
    const routes = server.app.routeList.filter(
      (r) => r.url.startsWith('/api/') && ['POST', 'PUT', 'PATCH'].includes(r.method),
    );
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      const url = concretePath(route.url);
      await fc.assert(
        fc.asyncProperty(jsonBody, fc.boolean(), async (body, withToken) => {
          await expectCleanAnswer(route.method, url, {
            method: route.method,
            headers: {
              'content-type': 'application/json',
              ...(withToken ? { authorization: `Bearer ${owner.token}` } : {}),
            },
            body: JSON.stringify(body),
          });
        }),
        { numRuns: JSON_RUNS_PER_ROUTE },
      );
      await fc.assert(
        fc.asyncProperty(rawBody, async (raw) => {
          await expectCleanAnswer(route.method, url, {
            method: route.method,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
            body: raw,
          });
        }),
        { numRuns: RAW_RUNS_PER_ROUTE },
      );
      // Invalid UTF-8 bytes.
      await expectCleanAnswer(route.method, url, {
        method: route.method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
        body: new Uint8Array([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]),
      });
    }
  }, 300_000);

  it('after the fuzzing every stored document is still a valid rich-text tree', async () => {
    const rows = await server.database.db.select({ content: documents.content }).from(documents);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(sanitizeDocContent(row.content).ok).toBe(true);
    const { text } = await server.request('GET', `/api/documents/${documentId}`, { token: owner.token });
    expect(text).not.toContain('javascript:');
  });

  it('no body reached Object.prototype', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
