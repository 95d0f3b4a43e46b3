import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { EVERY_NODE_DOCUMENT } from '../../shared/export/fixture';
import { sanitizeDocContent } from '../../shared/schemas/richText';
import { documents } from '../db/schema';
import { exportDocument } from '../export';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

/**
 * Request fuzzer over every JSON route (bad input gets a clear error, never a 500 and never lost
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
  // Short strings with NUL, which the database cannot store (long ones are refused by length first).
  { weight: 1, arbitrary: fc.constantFrom('Draft\u0000 one', '\u0000', 'a\u0000b\u0000c') },
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

// Imports: files a hostile or careless writer may upload, in every accepted format and some that are not.
const IMPORT_RUNS = Math.max(24, JSON_RUNS_PER_ROUTE * 3);
const SHARE_PASSWORD = 'fuzz share password';
let seedDocx: Uint8Array;
const hostileMarkup = fc.constantFrom(
  '<script>alert(1)</script><p>text</p>',
  '<a href="javascript:alert(1)">x</a><iframe src="https://example.com"></iframe>',
  '<h9>deep</h9><img src=x onerror=alert(1)><p style="color: expression(alert(1))">styled</p>',
  '<div>'.repeat(5_000) + 'deep' + '</div>'.repeat(5_000),
  '[x](javascript:alert(1)) <script>x</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |',
  '#'.repeat(100) + ' heading\n' + '> '.repeat(2_000) + 'quote',
  '\u0000\ud800\uffff',
);
const flipBytes = (bytes: Uint8Array, at: number[], mask: number) => {
  const copy = Uint8Array.from(bytes);
  for (const i of at) if (copy.length > 0) copy[i % copy.length] = copy[i % copy.length]! ^ mask;
  return copy;
};
const importFile = fc.record({
  name: fc.constantFrom(
    'draft.docx',
    'draft.md',
    'draft.markdown',
    'draft.html',
    'draft.htm',
    'draft.txt',
    'draft.pdf',
    'draft',
  ),
  body: fc.oneof(
    fc.uint8Array({ maxLength: 4_096 }),
    fc.string({ maxLength: 2_000, unit: 'binary' }).map((text) => new TextEncoder().encode(text)),
    hostileMarkup.map((text) => new TextEncoder().encode(text)),
    // A real Word file with bytes flipped, or cut short.
    fc
      .tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 255 }))
      .map(([at, mask]) => flipBytes(seedDocx, at, mask)),
    fc.nat().map((cut) => seedDocx.slice(0, cut % seedDocx.length)),
    // A zip that looks like Word but holds broken or hostile XML.
    fc.oneof(fc.string({ maxLength: 500 }), hostileMarkup).map((xml) =>
      zipSync({
        '[Content_Types].xml': new TextEncoder().encode('<Types/>'),
        'word/document.xml': new TextEncoder().encode(xml),
      }),
    ),
  ),
});

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
  const exported = await exportDocument('Fuzz seed', EVERY_NODE_DOCUMENT, 'docx');
  seedDocx = new Uint8Array(exported.body as Buffer);
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

  it('imports answer random, mutated and hostile files with 201 or a JSON 4xx, never a 5xx', async () => {
    // A writer of its own: the JSON fuzzing above may have signed the owner out.
    const writer = await createUser(server);
    let imported = 0;
    await fc.assert(
      fc.asyncProperty(importFile, async ({ name, body }) => {
        cases++;
        const form = new FormData();
        form.append('file', new Blob([Uint8Array.from(body)]), name);
        const response = await fetch(`${server.url}/api/documents/import`, {
          method: 'POST',
          headers: { authorization: `Bearer ${writer.token}` },
          body: form,
        });
        const text = await response.text();
        expect(response.status, `${name} → ${response.status} ${text.slice(0, 200)}`).toBeLessThan(500);
        if (response.status === 201) imported++;
        else {
          const error = JSON.parse(text) as { message?: unknown; code?: unknown };
          expect(typeof error.message, name).toBe('string');
          expect(typeof error.code, name).toBe('string');
        }
      }),
      { numRuns: IMPORT_RUNS },
    );
    console.log(`fuzz: ${IMPORT_RUNS} import uploads, ${imported} imported`);
  }, 300_000);

  it('share-link unlock answers any password or body with 200, 401 or a JSON 4xx', async () => {
    const sharer = await createUser(server);
    const created = await server.request('POST', '/api/documents', {
      token: sharer.token,
      body: { title: 'Shared behind a password' },
    });
    expect(created.status).toBe(201);
    const sharedId = created.body.id as string;
    const shared = await server.request('PUT', `/api/documents/${sharedId}/share`, {
      token: sharer.token,
      body: { isPublic: true, allowEditing: false, password: SHARE_PASSWORD },
    });
    expect(shared.status, shared.text).toBe(200);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ password: fc.oneof(fc.string({ maxLength: 300 }), hugeString, fc.jsonValue()) }),
          jsonBody,
        ),
        async (body) => {
          await expectCleanAnswer('POST', `/api/shared/${sharedId}/unlock`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        },
      ),
      { numRuns: JSON_RUNS_PER_ROUTE * 2 },
    );
    // The right password still opens it afterwards (a flood of wrong ones may rate-limit the address: 429).
    const unlocked = await server.request('POST', `/api/shared/${sharedId}/unlock`, {
      body: { password: SHARE_PASSWORD },
    });
    expect([200, 429]).toContain(unlocked.status);
  }, 300_000);

  it('after the fuzzing every stored document is still a valid rich-text tree', async () => {
    const rows = await server.database.db.select({ content: documents.content }).from(documents);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(sanitizeDocContent(row.content).ok).toBe(true);
      // Markup may survive as visible text (escaped wherever it is shown), never as nodes or live links.
      expect(JSON.stringify(row.content)).not.toMatch(
        /"href":"\s*javascript:|"type":"(iframe|script|image)"/iu,
      );
    }
    const { text } = await server.request('GET', `/api/documents/${documentId}`, { token: owner.token });
    expect(text).not.toContain('javascript:');
  });

  it('no body reached Object.prototype', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
