import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { SqlRunner } from '../db/migrate';
import { documents } from '../db/schema';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { StoreBatch, type DocumentStore } from './store-batch';
import { storeLiveStates } from './repository';

const contentOf = (text: string) =>
  JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

function stateOf(text: string): Uint8Array {
  const doc = new Y.Doc();
  doc.getText('t').insert(0, text);
  return Y.encodeStateAsUpdate(doc);
}

describe('StoreBatch', () => {
  let server: TestServer;
  let user: TestUser;
  const storeStatements: string[] = [];
  let exec: SqlRunner;

  beforeAll(async () => {
    server = await startTestServer();
    user = await createUser(server);
    exec = server.database.exec;
    server.database.exec = (sqlText, params) => {
      if (/update documents/u.test(sqlText)) storeStatements.push(sqlText);
      return exec(sqlText, params);
    };
  });
  afterAll(async () => {
    if (server) server.database.exec = exec;
    await server?.close();
  });

  async function createDocument(): Promise<string> {
    const res = await server.request('POST', '/api/documents', { token: user.token, body: {} });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  async function rowOf(id: string) {
    const [row] = await server.database.db.select().from(documents).where(eq(documents.id, id));
    return row!;
  }

  const storeOf = (documentId: string, text: string, writerChange = false): DocumentStore => ({
    documentId,
    state: stateOf(text),
    content: contentOf(text),
    title: null,
    writerChange,
  });

  it('writes the documents due together in one statement, each with its own new version', async () => {
    const ids = await Promise.all([createDocument(), createDocument(), createDocument()]);
    const before = await Promise.all(ids.map(rowOf));
    storeStatements.length = 0;
    const batch = new StoreBatch((stores) => storeLiveStates(server.database, stores));
    const stores = ids.map((id, i) => storeOf(id, `text ${i}`));
    const results = await Promise.all(stores.map((store) => batch.store(store)));
    expect(storeStatements).toHaveLength(1);
    for (const [i, id] of ids.entries()) {
      const row = await rowOf(id);
      expect(row.content).toEqual(JSON.parse(contentOf(`text ${i}`)));
      expect(new Uint8Array(row.ydocState!)).toEqual(stores[i]!.state);
      expect(row.version).toBe(before[i]!.version + 1);
      expect(results[i]).toEqual({ version: row.version, updatedAt: row.updatedAt });
    }
  });

  it('keeps the version when content and title are unchanged, and moves it for a change of the writer', async () => {
    const id = await createDocument();
    const batch = new StoreBatch((stores) => storeLiveStates(server.database, stores));
    const first = await batch.store(storeOf(id, 'same'));
    const again = await batch.store(storeOf(id, 'same'));
    expect(again).toEqual(first);
    // The document writer's change moves it even when the content ends up as it was (a PATCH always does).
    const patched = await batch.store(storeOf(id, 'same', true), { now: true });
    expect(patched?.version).toBe(first!.version + 1);
    expect(patched!.updatedAt.getTime()).toBeGreaterThan(first!.updatedAt.getTime());
    const titled = await batch.store({ ...storeOf(id, 'same'), title: 'New title' });
    expect(titled?.version).toBe(first!.version + 2);
    expect((await rowOf(id)).title).toBe('New title');
    const typed = await batch.store(storeOf(id, 'typed after the PATCH'));
    expect(typed?.version).toBe(first!.version + 3);
  });

  it('a store that replaces a waiting one keeps that one’s title and writer change', async () => {
    const id = await createDocument();
    const batch = new StoreBatch((stores) => storeLiveStates(server.database, stores));
    const before = await rowOf(id);
    const [older, newer] = await Promise.all([
      batch.store({ ...storeOf(id, 'x', true), title: 'From the writer' }),
      batch.store(storeOf(id, 'x and typing')),
    ]);
    expect(older).toEqual(newer);
    const row = await rowOf(id);
    expect(row.title).toBe('From the writer');
    expect(row.version).toBe(before.version + 1);
  });

  it('a second store of a waiting document replaces the first, and both callers get the result', async () => {
    const id = await createDocument();
    storeStatements.length = 0;
    const batch = new StoreBatch((stores) => storeLiveStates(server.database, stores));
    const [older, newer] = await Promise.all([
      batch.store(storeOf(id, 'older')),
      batch.store(storeOf(id, 'newer')),
    ]);
    expect(storeStatements).toHaveLength(1);
    expect(older).toEqual(newer);
    expect((await rowOf(id)).content).toEqual(JSON.parse(contentOf('newer')));
  });

  it('answers undefined for a deleted document, and one bad write does not fail the others', async () => {
    const [kept, deleted] = await Promise.all([createDocument(), createDocument()]);
    await server.database.db.delete(documents).where(eq(documents.id, deleted));
    const batch = new StoreBatch((stores) => storeLiveStates(server.database, stores));
    const bad = { ...storeOf(await createDocument(), 'bad'), content: '{not json' };
    const [keptResult, deletedResult, badResult] = await Promise.allSettled([
      batch.store(storeOf(kept, 'kept')),
      batch.store(storeOf(deleted, 'gone')),
      batch.store(bad),
    ]);
    expect(keptResult.status).toBe('fulfilled');
    expect((await rowOf(kept)).content).toEqual(JSON.parse(contentOf('kept')));
    expect(deletedResult).toEqual({ status: 'fulfilled', value: undefined });
    expect(badResult.status).toBe('rejected');
  });
});
