import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import * as Y from 'yjs';
import { repairLiveContent } from '../collab';
import { appendParagraph, connectCollabClient, paragraphTexts, waitFor } from '../collab/testing';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

/**
 * Text that PostgreSQL and PGlite cannot store (text and jsonb refuse it), at every entry point, never a 500:
 * - U+0000 (NUL), from a pasted binary, a careless client or a hostile one, is dropped;
 * - a lone UTF-16 surrogate (half of a pair, such as "\udfff") is not a character. JSON can carry one only as an
 *   escape: every REST body with one is refused with 400, and imports and live content replace it with U+FFFD
 *   (the replacement character). It used to fail the write with a 500 whose log line held the whole document;
 *   the log never holds the document's text.
 */
const MARKER = 'Kestrel-manuscript-7f3a';
const LONE = '\udfff';

let server: TestServer;
let writer: TestUser;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ logStream: { write: (line) => void logLines.push(line) } });
  writer = await createUser(server);
});
afterAll(async () => {
  await server?.close();
});

const paragraph = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

async function createDocument(title: string, content: object) {
  return server.request('POST', '/api/documents', { token: writer.token, body: { title, content } });
}

describe.each([
  {
    kind: 'NUL characters',
    imports: [
      { name: 'nul\u0000.txt', text: 'Line\u0000 one\n\n\u0000', expected: '"Line one"', absent: '\\u0000' },
    ],
    // The repair reaches the live document too, so every editor converges on the clean text.
    live: { typed: 'Live\u0000 words', stored: 'Live words', editorConverges: true },
  },
  {
    kind: 'lone surrogates',
    imports: [
      {
        name: 'half.html',
        text: '<p>Half &#xDFFF; pair</p>',
        expected: 'Half \ufffd pair',
        absent: undefined,
      },
      { name: 'half.md', text: 'Half &#xD83D; pair', expected: 'Half \ufffd pair', absent: undefined },
    ],
    // The socket's encoding (UTF-8) already turns the half into U+FFFD on its way to the server.
    live: { typed: `Half ${LONE}pair`, stored: 'Half \ufffdpair', editorConverges: false },
  },
])('$kind', ({ imports, live }) => {
  it('in imported files are repaired, never a 500', async () => {
    for (const { name, text, expected, absent } of imports) {
      const form = new FormData();
      form.append('file', new Blob([new TextEncoder().encode(text)]), name);
      const response = await fetch(`${server.url}/api/documents/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writer.token}` },
        body: form,
      });
      const body = (await response.json()) as { title: string; content: unknown };
      expect(response.status, JSON.stringify(body)).toBe(201);
      if (absent) expect(JSON.stringify(body)).not.toContain(absent);
      expect(JSON.stringify(body.content)).toContain(expected);
    }
  });

  it('in live edits on the collaboration socket are repaired before storing', async () => {
    const created = await createDocument('Live', paragraph('Start'));
    const client = await connectCollabClient({
      serverUrl: server.url,
      documentId: created.body.id as string,
      token: writer.token,
    });
    try {
      client.appendParagraph(live.typed);
      let stored = '';
      const deadline = Date.now() + 10_000;
      while (!stored.includes(`"${live.stored}"`) && Date.now() < deadline) {
        const res = await server.request('GET', `/api/documents/${created.body.id}`, { token: writer.token });
        stored = JSON.stringify(res.body.content);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(stored).toContain(`"${live.stored}"`);
      if (live.editorConverges) {
        await waitFor(() => client.paragraphs().includes(live.stored), 5_000, 'the editor converges');
      }
    } finally {
      client.destroy();
    }
  });
});

describe('NUL characters', () => {
  it('are dropped from REST bodies: title, content, attributes and profile', async () => {
    const created = await createDocument('Night\u0000 shift', {
      type: 'doc',
      content: [
        {
          type: 'heading',
          attrs: { level: 2, textAlign: 'cen\u0000ter' },
          content: [{ type: 'text', text: 'Dawn' }],
        },
        { type: 'paragraph', content: [{ type: 'text', text: 'Tea\u0000 at six' }] },
      ],
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.title).toBe('Night shift');
    expect(created.body.content.content[0].attrs.textAlign).toBe('center');
    expect(created.body.content.content[1].content[0].text).toBe('Tea at six');

    const patched = await server.request('PATCH', `/api/documents/${created.body.id}`, {
      token: writer.token,
      body: { content: paragraph('\u0000\u0000Second\u0000 draft') },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(JSON.stringify(patched.body.content)).toContain('"Second draft"');

    const profile = await server.request('PUT', '/api/auth/user', {
      token: writer.token,
      body: { data: { full_name: 'Ada\u0000 Byron' } },
    });
    expect(profile.status, profile.text).toBe(200);
    expect(profile.body.user_metadata.full_name).toBe('Ada Byron');
  });

  it('are dropped from query strings (search answers instead of failing)', async () => {
    const res = await server.request('GET', '/api/search?q=second%00', { token: writer.token });
    expect(res.status, res.text).toBe(200);
    expect(JSON.stringify(res.body)).toContain('Night shift');
  });
});

describe('lone surrogates', () => {
  it('in rich text or a title are refused with 400 on create and update, and the log keeps no content', async () => {
    const inContent = await createDocument('Draft', paragraph(`${MARKER} ends badly ${LONE}`));
    expect(inContent.status, inContent.text).toBe(400);
    expect(inContent.body.code).toBe('validation_failed');

    const inTitle = await createDocument(`Title ${LONE}`, paragraph(MARKER));
    expect(inTitle.status, inTitle.text).toBe(400);
    expect(inTitle.body.code).toBe('validation_failed');

    const created = await createDocument('Draft', paragraph(`${MARKER} first line`));
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    for (const body of [
      { content: paragraph(`${MARKER} ${LONE}`) },
      { title: `${LONE}${MARKER}` },
      // A high surrogate with no low one after it, inside an attribute value.
      {
        content: {
          type: 'doc',
          content: [
            {
              type: 'paragraph',
              content: [
                { type: 'text', text: MARKER, marks: [{ type: 'link', attrs: { href: '/a\ud83d' } }] },
              ],
            },
          ],
        },
      },
    ]) {
      const patched = await server.request('PATCH', `/api/documents/${id}`, { token: writer.token, body });
      expect(patched.status, patched.text).toBe(400);
      expect(patched.body.code).toBe('validation_failed');
    }
    // A correct pair (an emoji) is a character like any other.
    const emoji = await server.request('PATCH', `/api/documents/${id}`, {
      token: writer.token,
      body: { title: 'Owl \ud83e\udd89', content: paragraph(`${MARKER} \ud83e\udd89`) },
    });
    expect(emoji.status, emoji.text).toBe(200);
    expect(emoji.body.title).toBe('Owl 🦉');

    const log = logLines.join('');
    expect(log).toContain(`/api/documents/${id}`);
    expect(log).not.toContain(MARKER);
  });

  it('in any other JSON body (profile) are refused with 400 too', async () => {
    const profile = await server.request('PUT', '/api/auth/user', {
      token: writer.token,
      body: { data: { full_name: `Ada ${LONE}` } },
    });
    expect(profile.status, profile.text).toBe(400);
    expect(profile.body.code).toBe('validation_failed');
  });

  it('in a live document’s state are replaced by U+FFFD before storing, in the live document too', () => {
    const doc = new Y.Doc();
    appendParagraph(doc, `Half ${LONE}pair`);
    appendParagraph(doc, 'Whole \ud83e\udd89 owl');
    const stored = JSON.stringify(repairLiveContent(doc, pino({ level: 'silent' }), 'doc-1'));
    expect(stored).toContain('"Half \ufffdpair"');
    expect(stored).toContain('"Whole 🦉 owl"');
    expect(paragraphTexts(doc)).toEqual(['Half \ufffdpair', 'Whole 🦉 owl']);
  });
});
