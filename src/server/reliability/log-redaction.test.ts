import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';

/**
 * The log never holds a document's text or a credential, even when a write fails inside the database: a failed
 * query's error carries the statement's parameters (the whole document), and the database's own detail quotes
 * the row it refused. The log is captured (the server's pino destination) and searched for both.
 */
const MARKER = 'Heron-chapter-three-b81c';
const PASSWORD = 'correct-horse-battery-91d2';

let server: TestServer;
let writer: TestUser;
const logLines: string[] = [];
const log = () => logLines.join('');

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

describe('what the log keeps', () => {
  it('a write that fails in the database (500) is logged without the document or the statement’s values', async () => {
    const created = await server.request('POST', '/api/documents', {
      token: writer.token,
      body: { title: 'Chapter three', content: paragraph('First line') },
    });
    expect(created.status, created.text).toBe(201);
    // Any title ending in "!" now fails inside the database, as a real fault would (a full disk, a broken
    // constraint): PostgreSQL's detail then quotes the whole row, content included.
    await server.database.exec(
      "alter table documents add constraint test_forced_failure check (title not like '%!') not valid",
    );
    try {
      logLines.length = 0;
      const failed = await server.request('PATCH', `/api/documents/${created.body.id}`, {
        token: writer.token,
        body: { title: 'Chapter three!', content: paragraph(`${MARKER} the heron rose`) },
      });
      expect(failed.status, failed.text).toBe(500);
      expect(failed.body.code).toBe('internal_error');
      expect(failed.text).not.toContain(MARKER);
    } finally {
      await server.database.exec('alter table documents drop constraint test_forced_failure');
    }
    const lines = log();
    // The failure is logged, with what a maintainer needs: the constraint and the SQL text.
    expect(lines).toContain('request failed');
    expect(lines).toContain('test_forced_failure');
    expect(lines).not.toContain(MARKER);
    expect(lines).not.toContain(writer.token);
  });

  it('credentials in a URL’s query, a header or a body are never logged', async () => {
    logLines.length = 0;
    await server.request('GET', `/api/documents?access_token=${writer.token}&limit=5`, {
      token: writer.token,
    });
    await server.request('GET', `/api/documents?api_key=${PASSWORD}`);
    const signIn = await server.request('POST', '/api/auth/token?grant_type=password', {
      body: { email: writer.email, password: PASSWORD },
    });
    expect(signIn.status).toBeLessThan(500);
    const lines = log();
    expect(lines).toContain('/api/documents?access_token=%5Bredacted%5D&limit=5');
    expect(lines).not.toContain(writer.token);
    expect(lines).not.toContain(PASSWORD);
  });
});
