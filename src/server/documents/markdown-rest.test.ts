import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

let server: TestServer;
let alice: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createUser(server);
});
afterAll(() => server?.close());

const MARKDOWN = { 'content-type': 'text/markdown; charset=utf-8' };

const SOURCE = `# Field notes

## Whales

Whales sing[^1] and a [map](https://example.com/map) shows where.

- North Atlantic
- Pacific
  - Hawaii

1. Listen
2. Record

[^1]: Payne and McVay, 1971.
`;

async function createDocument(user: TestUser): Promise<{ id: string; etag: string }> {
  const res = await server.request('POST', '/api/documents', { token: user.token, body: {} });
  expect(res.status).toBe(201);
  return { id: res.body.id, etag: res.headers.get('etag')! };
}

async function putMarkdown(user: TestUser, id: string, text: string, headers: Record<string, string> = {}) {
  return server.request('PATCH', `/api/documents/${id}`, {
    token: user.token,
    rawBody: text,
    headers: { ...MARKDOWN, ...headers },
  });
}

async function getMarkdown(user: TestUser, id: string) {
  return server.request('GET', `/api/documents/${id}`, {
    token: user.token,
    headers: { accept: 'text/markdown' },
  });
}

describe('Markdown over REST', () => {
  it('writes Markdown (its opening heading the title) and reads it back the same, headings, lists, links and footnotes', async () => {
    const { id } = await createDocument(alice);
    const written = await putMarkdown(alice, id, SOURCE);
    expect(written.status).toBe(200);
    expect(written.body.title).toBe('Field notes');
    const json = JSON.stringify(written.body.content);
    expect(written.body.content.content[0]).toMatchObject({ type: 'heading', attrs: { level: 2 } });
    expect(json).toContain('"bulletList"');
    expect(json).toContain('"orderedList"');
    expect(json).toContain('https://example.com/map');
    expect(json).toMatch(/footnote/i);

    const read = await getMarkdown(alice, id);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(read.headers.get('etag')).toBe(written.headers.get('etag'));
    expect(read.headers.get('vary')).toMatch(/\baccept\b/i);
    expect(read.text).toMatch(/^# Field notes\n/);
    expect(read.text).toContain('## Whales');
    expect(read.text).toContain('[map](https://example.com/map)');
    expect(read.text).toContain('sing[^1]');
    expect(read.text).toContain('[^1]: Payne and McVay, 1971.');
    expect(read.text).toMatch(/- North Atlantic\n- Pacific\n\s+- Hawaii/);
    expect(read.text).toMatch(/1\. Listen\n2\. Record/);

    // Round trip: what was read, written back, reads the same and holds the same content.
    const again = await putMarkdown(alice, id, read.text);
    expect(again.status).toBe(200);
    expect(again.body.content).toEqual(written.body.content);
    expect((await getMarkdown(alice, id)).text).toBe(read.text);
  });

  it('answers JSON unless Markdown is asked for', async () => {
    const { id } = await createDocument(alice);
    for (const accept of ['application/json', '*/*', 'text/markdown;q=0.5, application/json']) {
      const res = await server.request('GET', `/api/documents/${id}`, {
        token: alice.token,
        headers: { accept },
      });
      expect(res.headers.get('content-type'), accept).toMatch(/^application\/json/);
      expect(res.headers.get('vary'), accept).toBe('accept, accept-encoding');
    }
    const res = await server.request('GET', `/api/documents/${id}`, {
      token: alice.token,
      headers: { accept: 'text/markdown, application/json;q=0.9' },
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown/);
  });

  it('honours If-Match: a stale version is refused with 412 and nothing changes', async () => {
    const { id, etag } = await createDocument(alice);
    const first = await putMarkdown(alice, id, '# One\n\nFirst.\n', { 'if-match': etag });
    expect(first.status).toBe(200);
    const stale = await putMarkdown(alice, id, '# Two\n\nSecond.\n', { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect((await getMarkdown(alice, id)).text).toBe('# One\n\nFirst.\n');
  });

  it('creates a document from Markdown with POST', async () => {
    const res = await server.request('POST', '/api/documents', {
      token: alice.token,
      rawBody: '# From Markdown\n\nHello **world**.\n',
      headers: MARKDOWN,
    });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('From Markdown');
    expect(JSON.stringify(res.body.content)).toContain('"bold"');
  });

  it('sanitizes hostile Markdown: no javascript: link, no script, no event handler survives', async () => {
    const { id } = await createDocument(alice);
    const hostile = [
      '# Hostile',
      '',
      '[click](javascript:alert(1)) and [data](data:text/html;base64,PHNjcmlwdD4=)',
      '',
      '<script>alert(1)</script>',
      '',
      '<img src=x onerror="alert(2)">',
      '',
      '<a href="javascript:alert(3)">raw</a>',
      '',
      'Plain words stay.',
    ].join('\n');
    const res = await putMarkdown(alice, id, hostile);
    expect(res.status).toBe(200);
    const stored = JSON.stringify(res.body.content);
    expect(stored).toContain('Plain words stay.');
    expect(stored).not.toMatch(/javascript:|data:text\/html|<script|onerror/i);
    const md = (await getMarkdown(alice, id)).text;
    expect(md).not.toMatch(/javascript:|data:text\/html|<script|onerror/i);
  });

  it("keeps another user's document and a signed-out request out, and a suggest-only token is refused as for JSON", async () => {
    const { id } = await createDocument(alice);
    const bob = await createUser(server);
    expect((await getMarkdown(bob, id)).status).toBe(404);
    expect((await putMarkdown(bob, id, '# Mine\n')).status).toBe(404);
    const anonymous = await server.request('PATCH', `/api/documents/${id}`, {
      rawBody: '# x\n',
      headers: MARKDOWN,
    });
    expect(anonymous.status).toBe(401);

    const made = await server.request('POST', '/api/me/api-tokens', {
      token: alice.token,
      body: { name: 'suggester', scopes: ['suggest'] },
    });
    const suggester = { ...alice, token: made.body.token as string };
    const refused = await putMarkdown(suggester, id, '# Changed\n');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('api_token_suggest_only');
    expect((await getMarkdown(suggester, id)).status).toBe(200);
  });
});
