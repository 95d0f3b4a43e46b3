import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_NODE_DOCUMENT, HOSTILE_DOCUMENT } from '../../shared/export/fixture';
import { documents } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

let server: TestServer;
let owner: TestUser;

async function insert(title: string, content: unknown) {
  const [row] = await server.database.db
    .insert(documents)
    .values({ userId: owner.id, title, content })
    .returning({ id: documents.id });
  return row!.id;
}

beforeAll(async () => {
  server = await startTestServer();
  owner = await createUser(server);
});
afterAll(() => server?.close());

const today = () => new Date().toISOString().slice(0, 10);

describe('GET /api/documents/:id/export', () => {
  it('never fails on stored content the validator would refuse: every format 200, nothing unsafe', async () => {
    // Written straight to the table, as content stored before a rule existed would be.
    const id = await insert('Old content', {
      type: 'doc',
      content: [
        { type: 'iframe', attrs: { src: 'javascript:alert(1)' } },
        { type: 'heading', attrs: { level: 9 }, content: [{ type: 'text', text: 'Deep heading' }] },
        {
          type: 'paragraph',
          content: [
            {
              type: 'text',
              text: 'click',
              marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }],
            },
            { type: 'text', text: ' and more', marks: [{ type: 'blink' }] },
          ],
        },
        'not a node',
      ],
    });
    for (const format of ['md', 'html', 'txt', 'docx']) {
      const res = await fetch(`${server.url}/api/documents/${id}/export?format=${format}`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(res.status, format).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const body = format === 'docx' ? strFromU8(unzipSync(bytes)['word/document.xml']!) : strFromU8(bytes);
      expect(body, format).toContain('Deep heading');
      expect(body, format).not.toMatch(/iframe|javascript:/iu);
    }
  });

  it('exports Markdown with the SPEC file name', async () => {
    const id = await insert('My Essay: Draft #2', EVERY_NODE_DOCUMENT);
    const res = await server.request('GET', `/api/documents/${id}/export?format=md`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="my_essay__draft__2_${today()}.md"`,
    );
    expect(res.text).toContain('## Heading Two');
    expect(res.text).toMatch(/^3\. third item$/m);
  });

  it('exports standalone HTML that keeps structure and marks', async () => {
    const id = await insert('Essay', EVERY_NODE_DOCUMENT);
    const res = await server.request('GET', `/api/documents/${id}/export?format=html`, {
      token: owner.token,
    });
    expect(res.headers.get('content-type')).toContain('text/html');
    for (const fragment of [
      '<!doctype html>',
      '<title>Essay</title>',
      '<h2 style="text-align:center">Heading Two</h2>',
      '<strong>bold</strong>',
      '<em>italic</em>',
      '<u>underlined</u>',
      '<s>struck</s>',
      '<code>inline code</code>',
      '<ol start="3">',
      '<blockquote>',
      '<hr />',
      'href="https://example.com/page"',
      'rel="noopener noreferrer nofollow"',
    ]) {
      expect(res.text).toContain(fragment);
    }
  });

  it('hostile content never survives into HTML output', async () => {
    const id = await insert('<script>alert(1)</script>', HOSTILE_DOCUMENT);
    const res = await server.request('GET', `/api/documents/${id}/export?format=html`, {
      token: owner.token,
    });
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).not.toMatch(/<img/i);
    expect(res.text).not.toMatch(/javascript:/i);
    expect(res.text).not.toMatch(/href="data:/i);
    expect(res.text).not.toMatch(/<[^>]*\sonerror=/i);
    // The words are kept, as text.
    expect(res.text).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
  });

  it('exports plain text and a Word file that opens', async () => {
    const id = await insert('Essay', EVERY_NODE_DOCUMENT);
    const txt = await server.request('GET', `/api/documents/${id}/export?format=txt`, { token: owner.token });
    expect(txt.text).toContain('A quoted thought');
    const response = await fetch(`${server.url}/api/documents/${id}/export?format=docx`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(response.headers.get('content-disposition')).toContain(`essay_${today()}.docx`);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(strFromU8(files['word/document.xml']!)).toContain('Heading One');
  });

  it("another user's document is 404, an unknown format 400, no token 401", async () => {
    const id = await insert('Private', EVERY_NODE_DOCUMENT);
    const stranger = await createUser(server);
    expect(
      (await server.request('GET', `/api/documents/${id}/export?format=md`, { token: stranger.token }))
        .status,
    ).toBe(404);
    const bad = await server.request('GET', `/api/documents/${id}/export?format=exe`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation_failed');
    expect((await server.request('GET', `/api/documents/${id}/export?format=md`)).status).toBe(401);
  });
});
