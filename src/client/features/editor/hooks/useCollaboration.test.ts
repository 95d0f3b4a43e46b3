import 'fake-indexeddb/auto';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Y from 'yjs';
import { COLLAB_FRAGMENT } from '@shared/editor/collab-protocol';
import { offlineCopyName, offlineStoredKey } from '../offline-copy-keys';
import { pendingEarlyRead } from '../early-copy-read.testing';
import { type EarlyCopyRead, takeEarlyCopyRead } from '../offline-copy-store';
import { fetchServerState } from '../server-state';
import { useCollaboration } from './useCollaboration';

vi.mock('../offline-copy-store', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../offline-copy-store')>()),
  takeEarlyCopyRead: vi.fn(() => null),
}));
vi.mock('../server-state', () => ({ fetchServerState: vi.fn(() => Promise.resolve(null)) }));

const user = { id: 'user-1', name: 'Ada', color: '#ef4444' };
const documentIds: string[] = [];
let counter = 0;

/** A document this browser keeps a copy of (as far as localStorage says). */
function documentWithCopy(): string {
  const documentId = `collab-hook-test-${counter++}`;
  documentIds.push(documentId);
  localStorage.setItem(offlineStoredKey(offlineCopyName(documentId)), '');
  return documentId;
}

/** A document's Yjs state with `paragraphs` paragraphs in it. */
function stateWith(paragraphs: number): Uint8Array {
  const doc = new Y.Doc();
  doc.getXmlFragment(COLLAB_FRAGMENT).insert(
    0,
    Array.from({ length: paragraphs }, (_, index) => {
      const paragraph = new Y.XmlElement('paragraph');
      paragraph.insert(0, [new Y.XmlText(`Paragraph ${index + 1}.`)]);
      return paragraph;
    }),
  );
  return Y.encodeStateAsUpdate(doc);
}

/** The copy as the route's early read returns it: `paragraphs` paragraphs, handed over when `finish` is called. */
function earlyRead(paragraphs: number): { early: EarlyCopyRead; finish: () => void } {
  return pendingEarlyRead(stateWith(paragraphs));
}

/** The document opened as the editor page does (from the server's state over HTTP when there is no copy). */
function renderOwnersSession(documentId = `collab-hook-test-${counter++}`) {
  documentIds.push(documentId);
  return renderHook(() =>
    useCollaboration({ documentId, user, getToken: () => null, openFromServerState: true }),
  );
}

/** Renders the hook, noting what each session's document held when the page first saw it (the editor is made then). */
function renderSession(documentId: string) {
  const firstSeen = new Map<Y.Doc, number>();
  const rendered = renderHook(() => {
    const state = useCollaboration({ documentId, user, getToken: () => null });
    const doc = state.session?.ydoc;
    if (doc && !firstSeen.has(doc)) firstSeen.set(doc, doc.getXmlFragment(COLLAB_FRAGMENT).length);
    return state;
  });
  return { ...rendered, firstSeen };
}

afterEach(() => {
  // A test that failed before its unmount leaves no session (and no open copy) to the next one.
  cleanup();
  for (const documentId of documentIds.splice(0)) {
    indexedDB.deleteDatabase(offlineCopyName(documentId));
    localStorage.removeItem(offlineStoredKey(offlineCopyName(documentId)));
  }
});

describe('useCollaboration: opening from the copy read as the route matched', () => {
  it('waits for that read, so the editor is made once, with the text in it', async () => {
    const documentId = documentWithCopy();
    const { early, finish } = earlyRead(40);
    vi.mocked(takeEarlyCopyRead).mockReturnValueOnce(early);
    const { result, firstSeen, unmount } = renderSession(documentId);
    expect(result.current.session).toBeNull();
    act(() => finish());
    await waitFor(() => expect(result.current.ready).toBe(true));
    expect([...firstSeen.values()]).toEqual([40]);
    unmount();
  });

  it('starts without it when the read does not finish, and the copy fills the document when it does', async () => {
    const documentId = documentWithCopy();
    const { early, finish } = earlyRead(12);
    vi.mocked(takeEarlyCopyRead).mockReturnValueOnce(early);
    const { result, firstSeen, unmount } = renderSession(documentId);
    await waitFor(() => expect(result.current.session).not.toBeNull(), { timeout: 2_000 });
    expect([...firstSeen.values()]).toEqual([0]);
    expect(result.current.ready).toBe(false);
    act(() => finish());
    await waitFor(() => expect(result.current.ready).toBe(true));
    expect(result.current.session!.ydoc.getXmlFragment(COLLAB_FRAGMENT).length).toBe(12);
    unmount();
  });
});

describe('useCollaboration: whether only the socket can still open the document', () => {
  it('says so once the copy is read empty and the server has no state over HTTP (the page then shows the stored content)', async () => {
    let answer: (state: Uint8Array | null) => void = () => {};
    vi.mocked(fetchServerState).mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const { result, unmount } = renderOwnersSession();
    await waitFor(() => expect(result.current.session).not.toBeNull());
    // The state is still coming: it may yet open the document.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(result.current.waitsForSocket).toBe(false);
    act(() => answer(null));
    await waitFor(() => expect(result.current.waitsForSocket).toBe(true));
    expect(result.current.ready).toBe(false);
    unmount();
  });

  it('does not when the server state opens it', async () => {
    vi.mocked(fetchServerState).mockResolvedValueOnce(stateWith(3));
    const { result, unmount } = renderOwnersSession();
    await waitFor(() => expect(result.current.ready).toBe(true));
    expect(result.current.session!.ydoc.getXmlFragment(COLLAB_FRAGMENT).length).toBe(3);
    expect(result.current.waitsForSocket).toBe(false);
    unmount();
  });

  it('does not when the copy opens it', async () => {
    const documentId = documentWithCopy();
    const { early, finish } = earlyRead(5);
    vi.mocked(takeEarlyCopyRead).mockReturnValueOnce(early);
    const asked = vi.mocked(fetchServerState).mock.calls.length;
    const { result, unmount } = renderOwnersSession(documentId);
    act(() => finish());
    await waitFor(() => expect(result.current.ready).toBe(true));
    expect(result.current.waitsForSocket).toBe(false);
    expect(vi.mocked(fetchServerState).mock.calls.length).toBe(asked);
    unmount();
  });
});
