import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { COLLAB_CLOSE, COLLAB_FRAGMENT } from '../../shared/editor/collab-protocol';
import { createUser, type TestUser } from '../test/factories';
import { startTestServer, type TestServer } from '../test/server';
import { keepsTextAsItStood, textAsItStood } from './suggestion-guard';
import { connectCollabClient, waitFor, type CollabClient } from './testing';

const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const docOf = (...texts: string[]) => ({ type: 'doc', content: texts.map(paragraph) });

const suggestion = (id: string, author = 'visitor') => ({
  id,
  author_id: author,
  author_name: author,
  source: 'user',
  created_at: '2026-11-24T10:00:00.000Z',
});

/** The Y.XmlText of the first paragraph. */
function firstText(doc: Y.Doc): Y.XmlText {
  const block = doc.getXmlFragment(COLLAB_FRAGMENT).get(0) as Y.XmlElement;
  return block.get(0) as Y.XmlText;
}

/** The first paragraph as [text, mark names] runs. */
function runs(doc: Y.Doc): [string, string[]][] {
  return (firstText(doc).toDelta() as { insert: string; attributes?: Record<string, unknown> }[]).map(
    (op) => [op.insert, Object.keys(op.attributes ?? {}).sort()],
  );
}

function docWith(text: string): Y.Doc {
  const doc = new Y.Doc();
  const block = new Y.XmlElement('paragraph');
  block.insert(0, [new Y.XmlText(text)]);
  doc.getXmlFragment(COLLAB_FRAGMENT).insert(0, [block]);
  return doc;
}

/** The update a change to a copy of `doc` produces. */
function updateOf(doc: Y.Doc, change: (copy: Y.Doc) => void): Uint8Array {
  const copy = new Y.Doc();
  Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
  const before = Y.encodeStateVector(copy);
  change(copy);
  return Y.encodeStateAsUpdate(copy, before);
}

describe('the text as it stood', () => {
  it('leaves out inserted text and keeps text proposed for deletion', () => {
    const doc = docWith('The cat sat.');
    firstText(doc).insert(4, 'black ', { insertion: suggestion('s1') });
    firstText(doc).format(0, 4, { deletion: suggestion('s1') });
    expect(firstText(doc).toString()).toContain('black');
    expect(textAsItStood(doc)).toBe('The cat sat.');
  });

  it('tells suggestions from plain edits', () => {
    const doc = docWith('The cat sat.');
    const suggest = updateOf(doc, (copy) =>
      firstText(copy).insert(4, 'black ', { insertion: suggestion('s1') }),
    );
    const markForDeletion = updateOf(doc, (copy) =>
      firstText(copy).format(4, 3, { deletion: suggestion('s2') }),
    );
    const restructure = updateOf(doc, (copy) => {
      const second = new Y.XmlElement('paragraph');
      copy.getXmlFragment(COLLAB_FRAGMENT).insert(1, [second]);
    });
    const type = updateOf(doc, (copy) => firstText(copy).insert(4, 'black '));
    const remove = updateOf(doc, (copy) => firstText(copy).delete(0, 4));
    expect(keepsTextAsItStood(doc, suggest)).toBe(true);
    expect(keepsTextAsItStood(doc, markForDeletion)).toBe(true);
    expect(keepsTextAsItStood(doc, restructure)).toBe(true);
    expect(keepsTextAsItStood(doc, type)).toBe(false);
    expect(keepsTextAsItStood(doc, remove)).toBe(false);
    expect(keepsTextAsItStood(doc, new Uint8Array([1, 2, 3]))).toBe(false);
    // Trying an update never touches the document itself.
    expect(firstText(doc).toString()).toBe('The cat sat.');
  });

  it('refuses accepting a pending insertion (its text would join the text as it stood)', () => {
    const doc = docWith('The cat sat.');
    firstText(doc).insert(4, 'black ', { insertion: suggestion('s1', 'someone') });
    const accept = updateOf(doc, (copy) => firstText(copy).format(4, 6, { insertion: null }));
    const reject = updateOf(doc, (copy) => firstText(copy).delete(4, 6));
    expect(keepsTextAsItStood(doc, accept)).toBe(false);
    expect(keepsTextAsItStood(doc, reject)).toBe(true);
  });
});

describe('suggestions over the collaboration socket', () => {
  let server: TestServer;
  let alice: TestUser;
  const clients: CollabClient[] = [];
  const connect = async (documentId: string, token: string) => {
    const client = await connectCollabClient({ serverUrl: server.url, documentId, token });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    server = await startTestServer();
    alice = await createUser(server);
  });
  afterAll(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await server?.close();
  });

  async function sharedForSuggesting(text: string) {
    const created = await server.request('POST', '/api/documents', {
      token: alice.token,
      body: { content: docOf(text) },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const share = await server.request('PUT', `/api/documents/${id}/share`, {
      token: alice.token,
      body: { isPublic: true, allowEditing: false, allowSuggesting: true },
    });
    expect(share.status).toBe(200);
    expect(share.body).toMatchObject({ allowEditing: false, allowSuggesting: true });
    const opened = await server.request('GET', `/api/shared/${id}`);
    expect(opened.status).toBe(200);
    expect(opened.body.access).toBe('suggest');
    return { id, shareToken: opened.body.shareToken as string };
  }

  it('two sessions see the same suggestions, and accepting in one removes the marks in both', async () => {
    const { id, shareToken } = await sharedForSuggesting('The cat sat.');
    const one = await connect(id, alice.token);
    const two = await connect(id, alice.token);
    const visitor = await connect(id, shareToken);

    visitor.doc.transact(() => {
      firstText(visitor.doc).insert(4, 'black ', { insertion: suggestion('s1') });
      firstText(visitor.doc).format(0, 4, { deletion: suggestion('s1') });
    });
    const expected: [string, string[]][] = [
      ['The ', ['deletion']],
      ['black ', ['insertion']],
      ['cat sat.', []],
    ];
    await waitFor(
      () => JSON.stringify(runs(one.doc)) === JSON.stringify(expected),
      5_000,
      'suggestion in one',
    );
    await waitFor(
      () => JSON.stringify(runs(two.doc)) === JSON.stringify(expected),
      5_000,
      'suggestion in two',
    );

    // Accept in session one: the deleted word goes, the inserted one stays unmarked, everywhere.
    one.doc.transact(() => {
      firstText(one.doc).format(4, 6, { insertion: null });
      firstText(one.doc).delete(0, 4);
    });
    for (const client of [two, visitor]) {
      await waitFor(() => JSON.stringify(runs(client.doc)) === '[["black cat sat.",[]]]', 5_000, 'accepted');
    }
    expect(visitor.refusals).toEqual([]);
  });

  it("refuses a suggester's plain edit sent straight over the socket, and applies none of it", async () => {
    const { id, shareToken } = await sharedForSuggesting('Keep every word.');
    const owner = await connect(id, alice.token);
    const visitor = await connect(id, shareToken);

    firstText(visitor.doc).delete(0, 5);
    await waitFor(
      () => visitor.refusals.includes(COLLAB_CLOSE.suggestionsOnly.reason),
      5_000,
      'plain edit refused',
    );
    // Give the refused change every chance to (wrongly) arrive, then check with a fresh reader.
    owner.appendParagraph('owner still writes');
    await waitFor(() => owner.doc.getXmlFragment(COLLAB_FRAGMENT).length === 2, 5_000, 'owner edit');
    const reader = await connect(id, alice.token);
    expect(firstText(reader.doc).toString()).toBe('Keep every word.');
    expect(textAsItStood(reader.doc)).toBe('Keep every word.owner still writes');
  });

  it('lets an editor link write freely and a view link not at all', async () => {
    const { id } = await sharedForSuggesting('Editable.');
    const share = await server.request('PUT', `/api/documents/${id}/share`, {
      token: alice.token,
      body: { isPublic: true, allowEditing: true, allowSuggesting: true },
    });
    expect(share.status).toBe(200);
    const opened = await server.request('GET', `/api/shared/${id}`);
    expect(opened.body.access).toBe('edit');
    const editor = await connect(id, opened.body.shareToken as string);
    firstText(editor.doc).insert(0, 'Freely ');
    const owner = await connect(id, alice.token);
    await waitFor(() => firstText(owner.doc).toString() === 'Freely Editable.', 5_000, 'editor edit');
    expect(editor.refusals).toEqual([]);
  });
});
