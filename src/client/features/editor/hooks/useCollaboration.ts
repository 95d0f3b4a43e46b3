import { HocuspocusProvider } from '@hocuspocus/provider';
import { useEffect, useRef, useState } from 'react';
import { IndexeddbPersistence } from 'y-indexeddb';
import { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { COLLAB_FRAGMENT, COLLAB_PATH, parseStatelessMessage } from '@shared/editor/collab-protocol';
const REMOTE_NOTICE_INTERVAL_MS = 5_000;
/**
 * Outgoing document and awareness updates are sent in a batch at most this long after a keystroke, so encoding
 * and sending happen after the keystroke's frame instead of inside it (bench:editor), at a cost of up to 20 ms of
 * extra latency for the other editors.
 */
const SEND_BATCH_MS = 20;

export interface CollabUser {
  id: string;
  name: string;
  color: string;
}

export interface CollabSession {
  ydoc: Y.Doc;
  awareness: Awareness;
  provider: HocuspocusProvider;
}

export interface CollabState {
  session: CollabSession | null;
  /** WebSocket open and the first sync with the server done (badge 'Live'). */
  live: boolean;
  /** The Y.Doc holds real state (from IndexedDB or the server), so the live editor can be shown. */
  ready: boolean;
}

export interface UseCollaborationOptions {
  documentId: string;
  user: CollabUser;
  /** Called on every (re)connect, so a refreshed access token is used. */
  getToken: () => Promise<string | null> | string | null;
  /** Another user's change arrived (throttled). */
  onRemoteChange?: () => void;
  /** The title was changed in another session (server stateless message). */
  onTitleChange?: (title: string) => void;
  /** The server stored the document (ISO time of the last change). */
  onStored?: (updatedAt: string) => void;
}

export function collabUrl(origin: string = window.location.origin): string {
  return `${origin.replace(/^http/u, 'ws')}${COLLAB_PATH}`;
}

function fragmentIsEmpty(ydoc: Y.Doc): boolean {
  return ydoc.getXmlFragment(COLLAB_FRAGMENT).length === 0;
}

/**
 * One Yjs session per open document: Y.Doc + awareness, y-indexeddb (offline copy keyed by document id) and a
 * HocuspocusProvider to /api/collab. Everything is created in an effect so React's double-mount in development
 * cannot leak a socket.
 */
export function useCollaboration({
  documentId,
  user,
  getToken,
  onRemoteChange,
  onTitleChange,
  onStored,
}: UseCollaborationOptions): CollabState {
  const [session, setSession] = useState<CollabSession | null>(null);
  const [live, setLive] = useState(false);
  const [ready, setReady] = useState(false);

  const latest = useRef({ user, getToken, onRemoteChange, onTitleChange, onStored });
  useEffect(() => {
    latest.current = { user, getToken, onRemoteChange, onTitleChange, onStored };
  });

  useEffect(() => {
    const ydoc = new Y.Doc();
    const awareness = new Awareness(ydoc);
    const local = new IndexeddbPersistence(`quillwright-doc-${documentId}`, ydoc);
    let serverSynced = false;
    let connected = false;
    let lastNotice = 0;

    const markReady = () => {
      if (serverSynced || !fragmentIsEmpty(ydoc)) setReady(true);
    };
    const refreshLive = () => setLive(connected && serverSynced);

    const provider = new HocuspocusProvider({
      url: collabUrl(),
      name: documentId,
      document: ydoc,
      awareness,
      flushDelay: SEND_BATCH_MS,
      token: async () => (await latest.current.getToken()) ?? '',
      onStatus: ({ status }) => {
        connected = status === 'connected';
        if (!connected) serverSynced = false;
        refreshLive();
      },
      onSynced: ({ state }) => {
        serverSynced = state;
        refreshLive();
        markReady();
      },
      onStateless: ({ payload }) => {
        const message = parseStatelessMessage(payload);
        if (message?.type === 'title') latest.current.onTitleChange?.(message.title);
        if (message?.type === 'stored') latest.current.onStored?.(message.updatedAt);
      },
      onAuthenticationFailed: () => {
        serverSynced = false;
        refreshLive();
      },
    });

    void local.whenSynced.then(markReady);

    // The browser knows before the socket does: a dead connection would otherwise look 'Live' until the
    // provider's message timeout. Going offline closes the socket; coming back reconnects (with a fresh token).
    const onOffline = () => provider.disconnect();
    const onOnline = () => void provider.connect();
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);

    // SPEC §4/§8: a notice when another user's change arrives (not our own echo, not the initial load).
    const onAfterTransaction = (transaction: Y.Transaction) => {
      if (transaction.local || transaction.origin !== provider || !serverSynced) return;
      markReady();
      const changedClients = [...transaction.afterState.keys()].filter(
        (client) => (transaction.beforeState.get(client) ?? 0) < (transaction.afterState.get(client) ?? 0),
      );
      if (changedClients.length === 0) return;
      const states = awareness.getStates();
      const me = latest.current.user.id;
      const fromSomeoneElse = changedClients.some((client) => {
        const other = states.get(client)?.user as { id?: string } | undefined;
        return other?.id !== me;
      });
      const now = Date.now();
      if (fromSomeoneElse && now - lastNotice > REMOTE_NOTICE_INTERVAL_MS) {
        lastNotice = now;
        latest.current.onRemoteChange?.();
      }
    };
    ydoc.on('afterTransaction', onAfterTransaction);

    setSession({ ydoc, awareness, provider });
    return () => {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
      ydoc.off('afterTransaction', onAfterTransaction);
      provider.destroy();
      void local.destroy();
      awareness.destroy();
      ydoc.destroy();
      setSession(null);
      setLive(false);
      setReady(false);
    };
  }, [documentId]);

  return { session, live, ready };
}
