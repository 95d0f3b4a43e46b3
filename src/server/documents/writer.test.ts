import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RichTextDoc } from '../../shared/schemas/richText';
import { connectCollabClient, waitFor, type CollabClient } from '../collab/testing';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import type { DocumentEvent } from './events';

/**
 * Every change of a document's content or title goes through the one writer (writer.ts): validated once,
 * written once. Validator calls are counted through the shared validator module (every check of content, in
 * refuse or repair mode, is one of its two entry points), row writes with a trigger on the documents table.
 */

const validator = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../shared/editor/validate', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../shared/editor/validate')>();
  return {
    ...actual,
    validateRichText: (input: unknown) => {
      validator.calls += 1;
      return actual.validateRichText(input);
    },
    repairRichText: (input: unknown) => {
      validator.calls += 1;
      return actual.repairRichText(input);
    },
  };
});

const docOf = (...texts: string[]): RichTextDoc => ({
  type: 'doc',
  content: texts.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

let server: TestServer;
let alice: TestUser;
const clients: CollabClient[] = [];
const events: DocumentEvent[] = [];

beforeAll(async () => {
  server = await startTestServer();
  alice = await createUser(server);
  await server.database.exec(
    `create table test_document_writes (op text not null, document_id uuid not null)`,
  );
  await server.database
    .exec(`create function test_count_document_writes() returns trigger language plpgsql as $$
    begin insert into test_document_writes values (TG_OP, NEW.id); return NEW; end $$`);
  await server.database.exec(`create trigger test_count_document_writes after insert or update on documents
    for each row execute function test_count_document_writes()`);
  const stream = server.app.deps.documentEvents;
  for (const type of ['created', 'content.changed', 'title.changed', 'live.edited'] as const) {
    stream.on(type, (event) => void events.push(event));
  }
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  events.length = 0;
});

afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
  vi.restoreAllMocks();
});

/** Row writes (INSERT or UPDATE of documents) of the document since the last call. */
async function rowWrites(documentId: string): Promise<string[]> {
  const rows = (await server.database.exec(
    `delete from test_document_writes where document_id = $1 returning op`,
    [documentId],
  )) as { op: string }[];
  return rows.map((row) => row.op);
}

async function createDocument(content: RichTextDoc): Promise<string> {
  const res = await server.request('POST', '/api/documents', { token: alice.token, body: { content } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function connect(documentId: string, token: string): Promise<CollabClient> {
  const client = await connectCollabClient({ serverUrl: server.url, documentId, token });
  clients.push(client);
  return client;
}

/** Waits until the server said it stored the client's own edits. */
async function storedFor(client: CollabClient, version?: number): Promise<void> {
  const { isStoredFor } = await import('../../shared/editor/collab-protocol');
  await waitFor(
    () =>
      client.messages.some(
        (m) =>
          m.type === 'stored' &&
          isStoredFor(m, client.doc) &&
          (version === undefined || m.version >= version),
      ),
    5_000,
    'stored',
  );
}

/**
 * Waits for the socket store's `content.changed`: the writer tells the editors `stored` as soon as the row is
 * written, and announces the change to subscribers after that.
 */
async function socketChangeAnnounced(documentId: string): Promise<void> {
  await waitFor(
    () =>
      events.some(
        (e) => e.type === 'content.changed' && e.documentId === documentId && e.source === 'socket',
      ),
    5_000,
    'content.changed from the socket',
  );
}

/** A live document with its first state stored and a first socket edit stored and announced, counters reset. */
async function liveDocument(): Promise<{ id: string; client: CollabClient }> {
  const id = await createDocument(docOf('First line'));
  const client = await connect(id, alice.token);
  client.appendParagraph('typed');
  await storedFor(client);
  await socketChangeAnnounced(id);
  await rowWrites(id);
  validator.calls = 0;
  events.length = 0;
  return { id, client };
}

describe('the document writer', () => {
  it('a PATCH of a live document validates once and writes the row once, through the Y.Doc', async () => {
    const { id, client } = await liveDocument();
    const writer = server.app.deps.documentWriter;
    const update = vi.spyOn(writer, 'update');
    const storeLive = vi.spyOn(writer, 'storeLive');

    const res = await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { title: 'Renamed', content: docOf('Replaced over REST') },
    });
    expect(res.status).toBe(200);

    expect(validator.calls).toBe(1);
    expect(await rowWrites(id)).toEqual(['UPDATE']);
    expect(update).toHaveBeenCalledTimes(1);
    expect(update.mock.calls[0]![0]).toMatchObject({ source: 'rest', documentId: id });
    expect(storeLive).toHaveBeenCalledTimes(1);
    expect(storeLive.mock.calls[0]![0]).toMatchObject({ title: 'Renamed', write: { source: 'rest' } });
    // The editor sees it, and what the answer says is what the database holds.
    await waitFor(
      () => client.paragraphs().join('|') === 'Replaced over REST',
      5_000,
      'the REST change live',
    );
    const stored = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
    expect(stored.body).toMatchObject({ title: 'Renamed', content: docOf('Replaced over REST') });
    expect(stored.headers.get('etag')).toBe(res.headers.get('etag'));
    // One content change from REST and one title change.
    expect(events.map((e) => e.type)).toEqual(['content.changed', 'title.changed']);
    expect(events[0]).toMatchObject({ source: 'rest', userId: alice.id });
  });

  it('a PATCH with a stale If-Match changes nothing in a live document', async () => {
    const { id, client } = await liveDocument();
    const current = await server.request('GET', `/api/documents/${id}`, { token: alice.token });
    const version = Number(current.headers.get('etag')!.replaceAll('"', ''));
    const res = await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      headers: { 'if-match': `"${version - 1}"` },
      body: { content: docOf('stale') },
    });
    expect(res.status).toBe(412);
    expect(await rowWrites(id)).toEqual([]);
    expect(client.paragraphs()).toEqual(['First line', 'typed']);
  });

  it('a socket edit validates once and stores once, announced as a socket change by its editor', async () => {
    const { id, client } = await liveDocument();
    const storeLive = vi.spyOn(server.app.deps.documentWriter, 'storeLive');
    client.appendParagraph('typed again');
    await storedFor(client);
    await socketChangeAnnounced(id);

    expect(await rowWrites(id)).toEqual(['UPDATE']);
    expect(validator.calls).toBe(1);
    expect(storeLive).toHaveBeenCalledTimes(1);
    expect(storeLive.mock.calls[0]![0].write).toBeUndefined();
    expect(events.find((e) => e.type === 'live.edited')).toMatchObject({ editor: { userId: alice.id } });
    expect(events.filter((e) => e.type === 'content.changed')).toMatchObject([{ source: 'socket' }]);
  });

  it('a PATCH of a document nobody has open is one UPDATE, validated once', async () => {
    const id = await createDocument(docOf('closed'));
    await rowWrites(id);
    validator.calls = 0;
    events.length = 0;
    const res = await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { content: docOf('still closed') },
    });
    expect(res.status).toBe(200);
    expect(validator.calls).toBe(1);
    expect(await rowWrites(id)).toEqual(['UPDATE']);
    expect(events).toMatchObject([{ type: 'content.changed', source: 'rest', version: 2 }]);
  });

  it('creates, imports, restores and share-link edits all reach the writer, each with its source', async () => {
    const writer = server.app.deps.documentWriter;
    const create = vi.spyOn(writer, 'create');
    const update = vi.spyOn(writer, 'update');
    const storeLive = vi.spyOn(writer, 'storeLive');

    const id = await createDocument(docOf('v1'));
    const form = new FormData();
    form.append('file', new Blob(['# Notes\n\nImported text']), 'notes.md');
    const imported = await fetch(`${server.url}/api/documents/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}` },
      body: form,
    });
    expect(imported.status).toBe(201);
    expect(create.mock.calls.map(([input]) => input.source)).toEqual(['rest', 'import']);

    const saved = await server.request('POST', `/api/documents/${id}/versions`, {
      token: alice.token,
      body: { name: 'first' },
    });
    await server.request('PATCH', `/api/documents/${id}`, {
      token: alice.token,
      body: { content: docOf('v2') },
    });
    const restored = await server.request('POST', `/api/documents/${id}/versions/${saved.body.id}/restore`, {
      token: alice.token,
    });
    expect(restored.status).toBe(200);
    expect(update.mock.calls.map(([input]) => input.source)).toEqual(['rest', 'restore']);

    await server.request('PUT', `/api/documents/${id}/share`, {
      token: alice.token,
      body: { isPublic: true, allowEditing: true },
    });
    const opened = await server.request('GET', `/api/shared/${id}`);
    const visitor = await connect(id, opened.body.shareToken as string);
    events.length = 0;
    visitor.appendParagraph('visitor edit');
    await storedFor(visitor);
    expect(storeLive).toHaveBeenCalled();
    expect(events.find((e) => e.type === 'live.edited')).toMatchObject({ editor: 'share-link' });
    expect(events.find((e) => e.type === 'content.changed')).toMatchObject({ source: 'socket' });
  });
});
