import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GFM_TABLE_DOCUMENT, TABLES_AND_TASKS_DOCUMENT } from '../../shared/export/fixture';
import type { RichTextDoc } from '../../shared/schemas/richText';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

let server: TestServer;
let alice: TestUser;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createUser(server);
});
afterAll(() => server?.close());

const withCell = (attrs: Record<string, unknown>): RichTextDoc => ({
  type: 'doc',
  content: [
    {
      type: 'table',
      content: [
        {
          type: 'tableRow',
          content: [{ type: 'tableCell', attrs, content: [{ type: 'paragraph', content: [] }] }],
        },
      ],
    },
  ],
});

describe('REST documents with tables and task lists', () => {
  it('creates, reads and replaces content holding tables, nested tasks, highlight and sub/superscript', async () => {
    const created = await server.request('POST', '/api/documents', {
      token: alice.token,
      body: { title: 'Tables', content: TABLES_AND_TASKS_DOCUMENT },
    });
    expect(created.status, created.text).toBe(201);
    const read = await server.request('GET', `/api/documents/${created.body.id}`, { token: alice.token });
    expect(read.body.content).toEqual(TABLES_AND_TASKS_DOCUMENT);

    const patched = await server.request('PATCH', `/api/documents/${created.body.id}`, {
      token: alice.token,
      body: { content: GFM_TABLE_DOCUMENT },
    });
    expect(patched.status, patched.text).toBe(200);
    const again = await server.request('GET', `/api/documents/${created.body.id}`, { token: alice.token });
    expect(again.body.content).toEqual(GFM_TABLE_DOCUMENT);
  });

  it('answers 400 naming the place for a span, width or checked flag outside the rules', async () => {
    const created = await server.request('POST', '/api/documents', {
      token: alice.token,
      body: { title: 'Bounds', content: GFM_TABLE_DOCUMENT },
    });
    for (const [content, message] of [
      [withCell({ colspan: 1000 }), 'attribute "colspan" must be an integer from 1 to 100'],
      [withCell({ colwidth: [1e9] }), 'attribute "colwidth"'],
      [
        {
          type: 'doc',
          content: [
            {
              type: 'taskList',
              content: [{ type: 'taskItem', attrs: { checked: 'yes' }, content: [{ type: 'paragraph' }] }],
            },
          ],
        },
        'attribute "checked" must be true or false',
      ],
    ] as const) {
      const res = await server.request('PATCH', `/api/documents/${created.body.id}`, {
        token: alice.token,
        body: { content },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
      expect(res.body.message).toContain('doc.content[0]');
    }
    const unchanged = await server.request('GET', `/api/documents/${created.body.id}`, {
      token: alice.token,
    });
    expect(unchanged.body.content).toEqual(GFM_TABLE_DOCUMENT);
  });
});
