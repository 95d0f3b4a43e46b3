import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import { OFFLINE_COPY_JOURNAL_DELAY_MS, OFFLINE_COPY_TRIM_AFTER_WRITES } from '@shared/constants';
import { OfflineCopy } from './offline-copy';
import { hasOfflineCopy, offlineCopyName, offlineStoredKey } from './offline-copy-keys';
import { pendingEarlyRead } from './early-copy-read.testing';
import { readCopyEarly, takeEarlyCopyRead } from './offline-copy-store';

const BATCH_MS = 200;

/** How many entries the y-indexeddb "updates" store of database `name` holds. */
function storedUpdates(name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const count = db.transaction('updates', 'readonly').objectStore('updates').count();
      count.onsuccess = () => {
        db.close();
        resolve(count.result);
      };
      count.onerror = () => reject(count.error);
    };
  });
}

/** Types `text` one character per Yjs transaction, as the editor does per keystroke. */
function typeInto(doc: Y.Doc, text: string): void {
  const body = doc.getText('body');
  for (const character of text) body.insert(body.length, character);
}

async function reopen(name: string): Promise<string> {
  const doc = new Y.Doc();
  const copy = new IndexeddbPersistence(name, doc);
  await copy.whenSynced;
  const text = doc.getText('body').toString();
  await copy.destroy();
  return text;
}

let counter = 0;
const names: string[] = [];
const freshName = () => {
  const name = `offline-copy-test-${counter++}`;
  names.push(name);
  return name;
};
afterEach(() => {
  for (const name of names.splice(0)) indexedDB.deleteDatabase(name);
});

describe('OfflineCopy', () => {
  it('writes a burst of keystrokes as one IndexedDB entry, not one per keystroke', async () => {
    const name = freshName();
    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: BATCH_MS });
    await copy.whenSynced;
    const before = await storedUpdates(name);
    typeInto(doc, 'forty keystrokes typed in a quick burst!');
    await new Promise((resolve) => setTimeout(resolve, BATCH_MS + 100));
    expect((await storedUpdates(name)) - before).toBe(1);
    await copy.destroy();
    expect(await reopen(name)).toBe('forty keystrokes typed in a quick burst!');
  });

  it('writes the pending batch at once when the page is hidden or closed', async () => {
    const name = freshName();
    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: 60_000 });
    await copy.whenSynced;
    typeInto(doc, 'typed just before closing');
    window.dispatchEvent(new Event('pagehide'));
    // The write is in flight; a new connection sees it once it commits.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await reopen(name)).toBe('typed just before closing');
    await copy.destroy();
  });

  it('recovers what a crashed tab had not yet written, from the journal', async () => {
    const name = freshName();
    const doc = new Y.Doc();
    const crashed = new OfflineCopy(name, doc, { batchMs: 60_000 });
    await crashed.whenSynced;
    typeInto(doc, 'typed as the tab crashed');
    // The journal is written in idle time, not inside the keystroke; a moment later the tab dies: no flush, no
    // destroy. Its timers and listeners would die with it.
    expect(localStorage.getItem(`${name}:unsaved`)).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, OFFLINE_COPY_JOURNAL_DELAY_MS + 20));
    expect(localStorage.getItem(`${name}:unsaved`)).not.toBeNull();
    doc.off('update', crashed.storeUpdate);

    const reopened = new Y.Doc();
    const copy = new OfflineCopy(name, reopened, { batchMs: 100 });
    await copy.whenSynced;
    expect(reopened.getText('body').toString()).toBe('typed as the tab crashed');
    // ...and it reaches IndexedDB itself, after which the journal is empty.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(localStorage.getItem(`${name}:unsaved`)).toBeNull();
    await copy.destroy();
    expect(await reopen(name)).toBe('typed as the tab crashed');
  });

  it('brings the journal up to date at once when the page is hidden or closed', () => {
    const name = freshName();
    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: 60_000 });
    typeInto(doc, 'the last words');
    expect(localStorage.getItem(`${name}:unsaved`)).toBeNull();
    window.dispatchEvent(new Event('pagehide'));
    const journal = localStorage.getItem(`${name}:unsaved`);
    expect(journal).not.toBeNull();
    const recovered = new Y.Doc();
    Y.applyUpdate(recovered, Buffer.from(journal!, 'base64'));
    expect(recovered.getText('body').toString()).toBe('the last words');
    void copy.destroy();
  });

  it('writes what is pending when the editor closes the document', async () => {
    const name = freshName();
    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: 60_000 });
    await copy.whenSynced;
    typeInto(doc, 'closed by the editor');
    await copy.destroy();
    expect(await reopen(name)).toBe('closed by the editor');
  });

  it("stores the server's state it is handed, and what is typed after it", async () => {
    const server = new Y.Doc();
    typeInto(server, 'from the server');
    const name = freshName();
    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: BATCH_MS });
    await copy.whenSynced;
    const seen: unknown[] = [];
    doc.on('update', (_update: Uint8Array, origin: unknown) => seen.push(origin));
    copy.applyServerState(Y.encodeStateAsUpdate(server), 'server');
    typeInto(doc, ', then typed');
    // Whoever else listens still hears both.
    expect(seen).toContain('server');
    expect(doc.getText('body').toString()).toBe('from the server, then typed');
    await copy.destroy();
    expect(await reopen(name)).toBe('from the server, then typed');
  });

  it('journals only what was typed here, not what came from the server, and stores both', async () => {
    const server = new Y.Doc();
    typeInto(server, 'a long text the server keeps. '.repeat(200));
    const name = freshName();
    const doc = new Y.Doc();
    const fromSocket = { socket: true };
    const copy = new OfflineCopy(name, doc, {
      batchMs: 60_000,
      fromServer: (origin) => origin === fromSocket,
    });
    await copy.whenSynced;
    copy.applyServerState(Y.encodeStateAsUpdate(server), 'http');
    typeInto(server, 'Later. ');
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(server, Y.encodeStateVector(doc)), fromSocket);
    typeInto(doc, 'Mine.');
    window.dispatchEvent(new Event('pagehide'));
    const journal = localStorage.getItem(`${name}:unsaved`);
    expect(journal).not.toBeNull();
    const journaled = Y.decodeUpdate(Buffer.from(journal!, 'base64')).structs;
    expect(journaled.length).toBeGreaterThan(0);
    expect(journaled.every((struct) => struct.id.client === doc.clientID)).toBe(true);
    await copy.destroy();
    expect(await reopen(name)).toBe(`${'a long text the server keeps. '.repeat(200)}Later. Mine.`);
  });

  it("counts as a copy to open from only once IndexedDB has the server's document, and not after it is forgotten", async () => {
    const server = new Y.Doc();
    typeInto(server, 'the stored chapter');
    const documentId = `doc-${counter++}`;
    const name = offlineCopyName(documentId);
    names.push(name);
    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: 60_000 });
    await copy.whenSynced;
    copy.applyServerState(Y.encodeStateAsUpdate(server), 'http');
    // Synced with the server, but its state not written yet (a page closed now leaves no such copy).
    copy.rememberServer(Y.encodeStateVector(doc));
    expect(hasOfflineCopy(documentId)).toBe(false);
    copy.flush();
    await vi.waitFor(() => expect(hasOfflineCopy(documentId)).toBe(true));
    expect(await reopen(name)).toBe('the stored chapter');
    await copy.clearData();
    expect(hasOfflineCopy(documentId)).toBe(false);
  });
});

describe('OfflineCopy: opening', () => {
  /** A document id whose copy this browser is known to keep (as after a sync with the server). */
  function documentWithCopy(): { documentId: string; name: string } {
    const documentId = `doc-${counter++}`;
    const name = offlineCopyName(documentId);
    names.push(name);
    localStorage.setItem(offlineStoredKey(name), '');
    return { documentId, name };
  }

  async function writeWithOfflineCopy(name: string, text: string): Promise<void> {
    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: 60_000 });
    await copy.whenSynced;
    typeInto(doc, text);
    await copy.destroy();
  }

  it('opens a copy written by y-indexeddb, as earlier versions kept it, and y-indexeddb opens ours', async () => {
    const name = freshName();
    const doc = new Y.Doc();
    const old = new IndexeddbPersistence(name, doc);
    await old.whenSynced;
    typeInto(doc, 'kept by an earlier version');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await old.destroy();

    const reopened = new Y.Doc();
    const copy = new OfflineCopy(name, reopened, { batchMs: 60_000 });
    await copy.whenSynced;
    expect(reopened.getText('body').toString()).toBe('kept by an earlier version');
    typeInto(reopened, ', and more');
    await copy.destroy();
    expect(await reopen(name)).toBe('kept by an earlier version, and more');
  });

  it('is made with the document in it when the copy was read as the route matched', async () => {
    const { documentId, name } = documentWithCopy();
    await writeWithOfflineCopy(name, 'a whole book');
    readCopyEarly(documentId);
    const early = takeEarlyCopyRead(documentId);
    expect(early).not.toBeNull();
    await early!.read;

    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: 60_000, early });
    // Synchronously, before the editor is made from the document.
    expect(doc.getText('body').toString()).toBe('a whole book');
    await copy.whenSynced;
    expect(doc.getText('body').toString()).toBe('a whole book');
    // The early read is used once.
    expect(takeEarlyCopyRead(documentId)).toBeNull();
    await copy.destroy();
  });

  it('also reads what was written after the early read, and waits for a read still under way', async () => {
    const { documentId, name } = documentWithCopy();
    await writeWithOfflineCopy(name, 'first part');
    readCopyEarly(documentId);
    const early = takeEarlyCopyRead(documentId)!;
    await early.read;
    // Another tab writes more before this page's session opens the copy.
    const other = new Y.Doc();
    const otherCopy = new OfflineCopy(name, other, { batchMs: 60_000 });
    await otherCopy.whenSynced;
    typeInto(other, ', second part');
    await otherCopy.destroy();

    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: 60_000, early });
    await copy.whenSynced;
    expect(doc.getText('body').toString()).toBe('first part, second part');
    await copy.destroy();

    // A session starting while the early read is still under way waits for it.
    const { documentId: thirdId, name: thirdName } = documentWithCopy();
    await writeWithOfflineCopy(thirdName, 'read while opening');
    readCopyEarly(thirdId);
    const underWay = takeEarlyCopyRead(thirdId)!;
    expect(underWay.value).toBeUndefined();
    const third = new Y.Doc();
    const thirdCopy = new OfflineCopy(thirdName, third, { batchMs: 60_000, early: underWay });
    await thirdCopy.whenSynced;
    expect(third.getText('body').toString()).toBe('read while opening');
    await thirdCopy.destroy();
  });

  it('applies an early read that comes in after the copy was made but before its database opened', async () => {
    const name = freshName();
    const source = new Y.Doc();
    typeInto(source, 'read as the route matched');
    const { early, finish } = pendingEarlyRead(Y.encodeStateAsUpdate(source));
    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: 60_000, early });
    finish();
    await copy.whenSynced;
    expect(doc.getText('body').toString()).toBe('read as the route matched');
    await copy.destroy();
  });

  it('reads nothing early, and creates no database, where the browser keeps no copy', async () => {
    const documentId = `doc-${counter++}`;
    const name = offlineCopyName(documentId);
    readCopyEarly(documentId);
    expect(takeEarlyCopyRead(documentId)).toBeNull();
    // Known to have a copy, but its database is gone (cleared by the browser): nothing is created.
    localStorage.setItem(offlineStoredKey(name), '');
    readCopyEarly(documentId);
    const early = takeEarlyCopyRead(documentId)!;
    expect(await early.read).toBeNull();
    expect((await indexedDB.databases()).map((db) => db.name)).not.toContain(name);
    localStorage.removeItem(offlineStoredKey(name));
  });

  it('lets another page delete the copy it holds open, keeping what is typed after in the journal', async () => {
    const name = freshName();
    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: 60_000 });
    await copy.whenSynced;
    const deleted = await new Promise<string>((resolve) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve('deleted');
      request.onblocked = () => resolve('blocked');
    });
    expect(deleted).toBe('deleted');
    typeInto(doc, 'typed after');
    expect(() => copy.flush()).not.toThrow();
    const journal = localStorage.getItem(`${name}:unsaved`);
    expect(journal).not.toBeNull();
    await copy.destroy();
  });

  it(`rewrites the copy as one entry past ${OFFLINE_COPY_TRIM_AFTER_WRITES} entries`, async () => {
    const name = freshName();
    const doc = new Y.Doc();
    const copy = new OfflineCopy(name, doc, { batchMs: 60_000 });
    await copy.whenSynced;
    for (let i = 0; i < OFFLINE_COPY_TRIM_AFTER_WRITES; i += 1) {
      typeInto(doc, 'x');
      copy.flush();
    }
    expect(await storedUpdates(name)).toBeGreaterThanOrEqual(OFFLINE_COPY_TRIM_AFTER_WRITES);
    await vi.waitFor(async () => expect(await storedUpdates(name)).toBe(1), { timeout: 5_000 });
    typeInto(doc, 'y');
    await copy.destroy();
    expect(await reopen(name)).toBe(`${'x'.repeat(OFFLINE_COPY_TRIM_AFTER_WRITES)}y`);
  });
});

describe('OfflineCopy.belongsTo', () => {
  /** A server document under its own client id, with `text` in it. */
  function serverDoc(text: string): Y.Doc {
    const doc = new Y.Doc();
    typeInto(doc, text);
    return doc;
  }

  it('merges with the server document it last synced with, also after others changed it', async () => {
    const copy = new OfflineCopy(freshName(), new Y.Doc());
    const server = serverDoc('stored text');
    expect(copy.belongsTo(Y.encodeStateVector(server))).toBe(true);
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(server));
    typeInto(other, ' and more');
    Y.applyUpdate(server, Y.encodeStateAsUpdate(other));
    expect(copy.belongsTo(Y.encodeStateVector(server))).toBe(true);
    await copy.destroy();
  });

  it('refuses a server document rebuilt from its text (none of the changes it had before)', async () => {
    const name = freshName();
    const copy = new OfflineCopy(name, new Y.Doc());
    expect(copy.belongsTo(Y.encodeStateVector(serverDoc('stored text')))).toBe(true);
    await copy.destroy();
    // The next page of the same browser.
    const reopened = new OfflineCopy(name, new Y.Doc());
    expect(reopened.belongsTo(Y.encodeStateVector(serverDoc('stored text')))).toBe(false);
    // Forgotten with the copy: the next sync starts a new record.
    await reopened.clearData();
    const fresh = new OfflineCopy(name, new Y.Doc());
    expect(fresh.belongsTo(Y.encodeStateVector(serverDoc('new text')))).toBe(true);
    await fresh.destroy();
  });

  it('merges with any server document when the last one it saw was empty', async () => {
    const copy = new OfflineCopy(freshName(), new Y.Doc());
    expect(copy.belongsTo(Y.encodeStateVector(new Y.Doc()))).toBe(true);
    expect(copy.belongsTo(Y.encodeStateVector(serverDoc('written elsewhere')))).toBe(true);
    await copy.destroy();
  });
});
