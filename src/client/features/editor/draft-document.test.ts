import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { DraftDocument } from './draft-document';

const RESTORE = Symbol('restore');
const textOf = (doc: Y.Doc) => doc.getText('body').toString();

/** A server document with a peer (another writer) wired to it like the provider would be. */
function setUp() {
  const server = new Y.Doc();
  const peer = new Y.Doc();
  const PEER = Symbol('peer');
  peer.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== PEER) Y.applyUpdate(server, update, PEER);
  });
  server.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== PEER) Y.applyUpdate(peer, update, PEER);
  });
  const draft = new DraftDocument(server, (origin) => origin === RESTORE);
  let notified = 0;
  draft.subscribe(() => (notified += 1));
  return { server, peer, draft, notifications: () => notified };
}

describe('DraftDocument (auto-save off)', () => {
  it("keeps the writer's edits until save, while other people's arrive at once", () => {
    const { server, peer, draft, notifications } = setUp();
    draft.doc.getText('body').insert(0, 'mine');
    expect(draft.hasUnsavedChanges()).toBe(true);
    expect(notifications()).toBe(1);
    expect(textOf(peer)).toBe('');

    peer.getText('body').insert(0, 'theirs ');
    expect(textOf(draft.doc)).toContain('theirs ');
    expect(textOf(draft.doc)).toContain('mine');
    expect(textOf(server)).toBe('theirs ');

    draft.save();
    expect(draft.hasUnsavedChanges()).toBe(false);
    expect(textOf(peer)).toBe(textOf(draft.doc));
    expect(textOf(server)).toBe(textOf(draft.doc));
  });

  it('a deletion alone is an unsaved change, and save sends it', () => {
    const { server, peer, draft } = setUp();
    peer.getText('body').insert(0, 'keep this word');
    draft.doc.getText('body').delete(5, 5);
    expect(draft.hasUnsavedChanges()).toBe(true);
    draft.save();
    expect(textOf(server)).toBe('keep word');
    expect(textOf(peer)).toBe('keep word');
  });

  it("saves under the draft's own client id and leaves the server document's id alone", () => {
    const { server, draft } = setUp();
    const serverId = server.clientID;
    draft.doc.getText('body').insert(0, 'x');
    draft.save();
    expect(server.clientID).toBe(serverId);
    expect(Y.getState(server.store, draft.doc.clientID)).toBe(1);
  });

  it('a restored browser copy is unsaved only if it differs from the server after the first sync', () => {
    const earlier = new Y.Doc();
    earlier.getText('body').insert(0, 'stored in the browser');
    const copy = Y.encodeStateAsUpdate(earlier);

    // The same text on the server: nothing to save.
    const same = setUp();
    Y.applyUpdate(same.peer, copy);
    Y.applyUpdate(same.draft.doc, copy, RESTORE);
    same.draft.compareWithServer();
    expect(same.draft.hasUnsavedChanges()).toBe(false);

    // The server never got it: unsaved, whether the copy loads before or after the first sync.
    const before = setUp();
    Y.applyUpdate(before.draft.doc, copy, RESTORE);
    expect(before.draft.hasUnsavedChanges()).toBe(false);
    before.draft.compareWithServer();
    expect(before.draft.hasUnsavedChanges()).toBe(true);

    const after = setUp();
    after.draft.compareWithServer();
    Y.applyUpdate(after.draft.doc, copy, RESTORE);
    expect(after.draft.hasUnsavedChanges()).toBe(true);
    after.draft.save();
    expect(textOf(after.peer)).toBe('stored in the browser');
  });
});
