import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectCollabClient, waitFor } from '../collab/testing';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

/**
 * U+0000 cannot be stored by PostgreSQL or PGlite (text and jsonb refuse it). A NUL from a pasted binary,
 * a careless client or a hostile one is dropped at every entry point instead of failing the write with a 500.
 */
let server: TestServer;
let writer: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  writer = await createUser(server);
});
afterAll(async () => {
  await server?.close();
});

const paragraph = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

describe('NUL characters', () => {
  it('are dropped from REST bodies: title, content, attributes and profile', async () => {
    const created = await server.request('POST', '/api/documents', {
      token: writer.token,
      body: {
        title: 'Night\u0000 shift',
        content: {
          type: 'doc',
          content: [
            {
              type: 'heading',
              attrs: { level: 2, textAlign: 'cen\u0000ter' },
              content: [{ type: 'text', text: 'Dawn' }],
            },
            { type: 'paragraph', content: [{ type: 'text', text: 'Tea\u0000 at six' }] },
          ],
        },
      },
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

  it('are dropped from imported files', async () => {
    const form = new FormData();
    form.append('file', new Blob([new TextEncoder().encode('Line\u0000 one\n\n\u0000')]), 'nul\u0000.txt');
    const response = await fetch(`${server.url}/api/documents/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writer.token}` },
      body: form,
    });
    const body = (await response.json()) as { title: string; content: unknown };
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(JSON.stringify(body)).not.toContain('\\u0000');
    expect(JSON.stringify(body.content)).toContain('"Line one"');
  });

  it('are dropped from live edits on the collaboration socket before storing', async () => {
    const created = await server.request('POST', '/api/documents', {
      token: writer.token,
      body: { title: 'Live', content: paragraph('Start') },
    });
    const client = await connectCollabClient({
      serverUrl: server.url,
      documentId: created.body.id as string,
      token: writer.token,
    });
    try {
      client.appendParagraph('Live\u0000 words');
      let stored = '';
      const deadline = Date.now() + 10_000;
      while (!stored.includes('"Live words"') && Date.now() < deadline) {
        const res = await server.request('GET', `/api/documents/${created.body.id}`, { token: writer.token });
        stored = JSON.stringify(res.body.content);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(stored).toContain('"Live words"');
      // The repair reaches the live document too, so every editor converges on the clean text.
      await waitFor(() => client.paragraphs().includes('Live words'), 5_000, 'the editor converges');
    } finally {
      client.destroy();
    }
  });
});
