import { strFromU8, unzipSync } from 'fflate';
import { Window } from 'happy-dom';
import { marked, type Tokens } from 'marked';
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

  it('exports Markdown named after the title (lower-cased, underscores) and the date', async () => {
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

  it('a hostile title comes out as inert text in every format', async () => {
    const title =
      '# Heading? [click](javascript:alert(1)) <img src=x onerror=alert(1)> **bold** &lt; `code` ++u++ \\\n\n' +
      '</w:t></w:r><w:p/> \u001b[31mred\u0007 #';
    // What a reader sees: one line, control characters gone.
    const visible = title
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    const id = await insert(title, {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Body' }] }],
    });
    const get = async (format: string) => {
      const res = await fetch(`${server.url}/api/documents/${id}/export?format=${format}`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(res.status, format).toBe(200);
      return new Uint8Array(await res.arrayBuffer());
    };

    // Markdown: the first block is a level-1 heading whose text is exactly the title, and nothing in it
    // renders as a link, an image, HTML or emphasis.
    const md = strFromU8(await get('md'));
    const [heading, ...rest] = marked.lexer(md);
    expect(heading).toMatchObject({ type: 'heading', depth: 1 });
    expect(
      (heading as Tokens.Heading).tokens.every((token) => token.type === 'text' || token.type === 'escape'),
    ).toBe(true);
    const rendered = marked.parse(md, { async: false });
    expect(rendered).not.toMatch(/<(a|img|strong|em|code|u)\b/i);
    expect(
      new Window().document.createRange().createContextualFragment(rendered).querySelector('h1')?.textContent,
    ).toBe(visible);
    expect(rest.filter((token) => token.type !== 'space')).toHaveLength(1);

    // HTML: the title element and the heading hold the title as text.
    const html = strFromU8(await get('html'));
    const page = new Window();
    page.document.write(html);
    expect(page.document.title).toBe(visible);
    expect(page.document.querySelector('h1')?.textContent).toBe(visible);
    expect(page.document.querySelectorAll('img, a, script')).toHaveLength(0);
    await page.happyDOM.close();

    // Text: one title line, no terminal escape sequences.
    const txt = strFromU8(await get('txt'));
    expect(txt.split('\n')[0]).toBe(visible);
    // eslint-disable-next-line no-control-regex
    expect(txt).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);

    // Word: the title paragraph holds the title as one run of text; the XML around it is intact.
    const xml = strFromU8(unzipSync(await get('docx'))['word/document.xml']!);
    const body = xml.slice(xml.indexOf('<w:body>'), xml.indexOf('<w:sectPr'));
    const paragraphs = body.split('</w:p>').filter((p) => p.includes('<w:p'));
    const textOf = (paragraph: string) =>
      [...paragraph.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)]
        .map((m) => m[1]!)
        .join('')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    expect(paragraphs.map(textOf)).toEqual([visible, 'Body']);
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

describe('GET /api/folders/:id/export', () => {
  const paragraph = (text: string) => ({
    type: 'doc',
    content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
  });
  async function folder(user: TestUser, name: string, parentId?: string): Promise<string> {
    const res = await server.request('POST', '/api/folders', { token: user.token, body: { name, parentId } });
    expect(res.status).toBe(201);
    return res.body.id;
  }
  async function documentIn(folderId: string, title: string, text: string): Promise<string> {
    const id = await insert(title, paragraph(text));
    const placed = await server.request('PUT', `/api/documents/${id}/folder`, {
      token: owner.token,
      body: { folderId },
    });
    expect(placed.status).toBe(200);
    return id;
  }
  const download = (folderId: string, format: string, token = owner.token) =>
    fetch(`${server.url}/api/folders/${folderId}/export?format=${format}`, {
      headers: { authorization: `Bearer ${token}` },
    });

  it('zips the folder and its sub-folders, each document converted, names kept and made safe', async () => {
    const book = await folder(owner, 'My Book');
    const part = await folder(owner, 'Part One', book);
    await folder(owner, 'Empty/Notes', book);
    await documentIn(book, 'Preface', 'Before the story.');
    await documentIn(part, 'Chapter 1', 'It was a dark night.');
    await documentIn(part, 'Chapter 1', 'A second draft of it.');
    await documentIn(part, '../../etc/passwd', 'Not a path.');
    const trashed = await documentIn(book, 'Deleted', 'Gone.');
    expect((await server.request('DELETE', `/api/documents/${trashed}`, { token: owner.token })).status).toBe(
      204,
    );

    const res = await download(book, 'md');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="my_book_${today()}.zip"`);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      'Empty_Notes/',
      'Part One/Chapter 1 (2).md',
      'Part One/Chapter 1.md',
      'Part One/__.._etc_passwd.md',
      'Preface.md',
    ]);
    expect(strFromU8(files['Preface.md']!)).toBe('# Preface\n\nBefore the story.\n');
    const chapters = [files['Part One/Chapter 1.md']!, files['Part One/Chapter 1 (2).md']!].map((bytes) =>
      strFromU8(bytes),
    );
    expect(chapters.sort()).toEqual([
      '# Chapter 1\n\nA second draft of it.\n',
      '# Chapter 1\n\nIt was a dark night.\n',
    ]);

    // Word files open as Word files inside the zip.
    const word = unzipSync(new Uint8Array(await (await download(part, 'docx')).arrayBuffer()));
    const chapter = unzipSync(word['Chapter 1.docx']!);
    expect(strFromU8(chapter['word/document.xml']!)).toMatch(/dark night|second draft/);
  });

  it("another user's folder is 404, a trashed folder 404, an unknown format 400, no token 401", async () => {
    const mine = await folder(owner, 'Mine');
    const stranger = await createUser(server);
    expect((await download(mine, 'md', stranger.token)).status).toBe(404);
    expect((await download(mine, 'exe')).status).toBe(400);
    expect((await fetch(`${server.url}/api/folders/${mine}/export?format=md`)).status).toBe(401);
    expect((await server.request('DELETE', `/api/folders/${mine}`, { token: owner.token })).status).toBe(204);
    const gone = await download(mine, 'md');
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ message: 'Folder not found', code: 'folder_not_found' });
  });
});
