import { HocuspocusProvider, type onMessageParameters } from '@hocuspocus/provider';
import * as decoding from 'lib0/decoding';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { COLLAB_FRAGMENT, COLLAB_PATH, parseStatelessMessage } from '@shared/editor/collab-protocol';
import { DraftDocument, type ManualSave } from '../draft-document';
import { OfflineCopy } from '../offline-copy';
import { hasOfflineCopy, offlineCopyName } from '../offline-copy-keys';
import { takeEarlyCopyRead } from '../offline-copy-store';
import { markOpening } from '../opening-marks';
import { fetchServerState } from '../server-state';
const REMOTE_NOTICE_INTERVAL_MS = 5_000;
/**
 * How long a session waits for the copy of the document the route started reading (it takes a few tens of
 * milliseconds): past it, the session starts and the copy fills the document when it is in.
 */
const EARLY_READ_WAIT_MS = 300;
/**
 * Outgoing document and awareness updates are sent in a batch at most this long after a keystroke, so encoding
 * and sending happen after the keystroke's frame instead of inside it (bench:editor), at a cost of up to 20 ms of
 * extra latency for the other editors.
 */
const SEND_BATCH_MS = 20;
/** Hocuspocus message type of Yjs sync messages, and y-protocols' first sync step (a state vector). */
const MESSAGE_SYNC = 0;
const SYNC_STEP_1 = 0;

export interface CollabUser {
  id: string;
  name: string;
  color: string;
}

export type { ManualSave };

export interface CollabSession {
  /** The document the editor shows and changes. With auto-save off, a draft that only `save()` sends on. */
  ydoc: Y.Doc;
  awareness: Awareness;
  provider: HocuspocusProvider;
  /** Auto-save off: the draft and what it holds that the server has not been sent. Absent with auto-save on. */
  manualSave?: ManualSave;
  /** Forgets this browser's offline copy (after the server refused a change it holds). */
  discardLocalCopy: () => Promise<void>;
}

export interface CollabState {
  session: CollabSession | null;
  /** WebSocket open and the first sync with the server done (badge 'Live'). */
  live: boolean;
  /** The Y.Doc holds real state (from IndexedDB or the server), so the live editor can be shown. */
  ready: boolean;
  /**
   * Only the socket's first sync can still make the document ready: this browser's copy is read and empty, and
   * there is no server state over HTTP (none asked for, 204, failed). The page then shows the stored content.
   */
  waitsForSocket: boolean;
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
  /**
   * Off: the writer's changes stay in a draft in this browser (kept in IndexedDB) until they save; other
   * people's changes still arrive live. Changing it starts a new session (the draft is kept, so turning
   * auto-save back on sends what was unsaved). Default on.
   */
  autoSave?: boolean;
  /** False: no session (the document could not be loaded). Default true. */
  enabled?: boolean;
  /**
   * Open from the document's state over HTTP (GET /api/documents/:id/state, the owner's) when it arrives before
   * the socket's first sync. Default false: a shared link's visitor may only use the socket.
   */
  openFromServerState?: boolean;
}

function collabUrl(origin: string = window.location.origin): string {
  return `${origin.replace(/^http/u, 'ws')}${COLLAB_PATH}`;
}

function fragmentIsEmpty(ydoc: Y.Doc): boolean {
  return ydoc.getXmlFragment(COLLAB_FRAGMENT).length === 0;
}

/**
 * The state vector in the server's first sync message (y-protocols sync step 1), else undefined. Every message the
 * server sends comes through here (a few per keystroke with others in the document), twice: the provider passes
 * this hook on to its socket, which calls it with the bare MessageEvent. So that call is told apart without an
 * exception (thrown and caught on every message, that cost as much as applying the message), and the document's
 * name is skipped, not decoded.
 */
function serverStateVector({ message }: Partial<onMessageParameters>): Uint8Array | undefined {
  if (!message) return undefined;
  try {
    const { decoder } = message;
    decoding.readVarUint8Array(decoder); // the document's name
    if (decoding.readVarUint(decoder) !== MESSAGE_SYNC || decoding.readVarUint(decoder) !== SYNC_STEP_1) {
      return undefined;
    }
    return decoding.readVarUint8Array(decoder);
  } catch {
    return undefined;
  }
}

/**
 * One Yjs session per open document: Y.Doc + awareness, the offline copy in IndexedDB (keyed by document id) and a
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
  autoSave = true,
  enabled = true,
  openFromServerState = false,
}: UseCollaborationOptions): CollabState {
  const [session, setSession] = useState<CollabSession | null>(null);
  const [live, setLive] = useState(false);
  const [ready, setReady] = useState(false);
  const [waitsForSocket, setWaitsForSocket] = useState(false);
  /** Counts the sessions started anew after this browser's copy of the document was found out of date. */
  const [restarts, setRestarts] = useState(0);

  const latest = useRef({ user, getToken, onRemoteChange, onTitleChange, onStored });
  useEffect(() => {
    latest.current = { user, getToken, onRemoteChange, onTitleChange, onStored };
  });

  // A layout effect: the session, and the editor the page builds on it, come in the same frame as the page around
  // them instead of one painted frame later (bench:editor, opening).
  useLayoutEffect(() => {
    if (!enabled) return;
    // A copy being read as the route matched is waited for, briefly: the editor is then made once, with the
    // document in it, rather than empty and filled a moment later, which on a book costs the whole document
    // rendered twice and a second encoding of it (bench:editor, opening from the offline copy).
    const early = takeEarlyCopyRead(documentId);
    let stop: (() => void) | null = null;
    let cancelled = false;
    const begin = () => {
      if (cancelled || stop) return;
      stop = startSession();
    };
    const startSession = () => {
      markOpening('session-started');
      // `ydoc` is what the server sees; with auto-save off the editor works on a draft beside it.
      const ydoc = new Y.Doc();
      const draft = autoSave ? undefined : new DraftDocument(ydoc, (origin) => origin instanceof OfflineCopy);
      const editorDoc = draft?.doc ?? ydoc;
      // Presence under the provider's document id: the provider announces and clears exactly that id.
      const awareness = new Awareness(ydoc);
      // Other sessions tell this session's saved drafts from other people's changes by it ("Document updated").
      if (draft) awareness.setLocalStateField('draftClientId', draft.doc.clientID);
      // The browser's copy is the editor's document: with auto-save off it keeps unsaved changes across reloads.
      const local = new OfflineCopy(offlineCopyName(documentId), editorDoc, {
        early,
        // What the socket brings from the server (with auto-save off, into `ydoc`, not the copy's document).
        fromServer: (origin) => origin instanceof HocuspocusProvider,
      });
      let serverSynced = false;
      /** The server's first sync message has arrived on this session's socket (see onMessage). */
      let serverChecked = false;
      let connected = false;
      let lastNotice = 0;

      const markReady = () => {
        if (serverSynced || !fragmentIsEmpty(editorDoc)) setReady(true);
      };
      let copyRead = false;
      let serverStateAwaited = openFromServerState && !hasOfflineCopy(documentId);
      const refreshWaitsForSocket = () =>
        setWaitsForSocket(copyRead && !serverStateAwaited && fragmentIsEmpty(editorDoc));
      const refreshLive = () => setLive(connected && serverSynced);

      const provider = new HocuspocusProvider({
        url: collabUrl(),
        name: documentId,
        document: ydoc,
        awareness,
        flushDelay: SEND_BATCH_MS,
        token: async () => (await latest.current.getToken()) ?? '',
        // The server's first sync message on each connection, before the reply to it sends what the server
        // lacks: changes are sent from then on if this browser's copy belongs to the server's history; if not,
        // the copy is forgotten and the session starts again from the server's document alone.
        onMessage: (received) => {
          const server = serverStateVector(received);
          if (!server) return;
          serverChecked = true;
          if (local.belongsTo(server)) return sendChanges(true);
          startAfresh();
        },
        onStatus: ({ status }) => {
          connected = status === 'connected';
          if (!connected) serverSynced = false;
          refreshLive();
        },
        onSynced: ({ state }) => {
          if (state && !serverSynced) markOpening('first-sync');
          serverSynced = state;
          refreshLive();
          markReady();
          if (state) draft?.compareWithServer();
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

      // Changes made before the check (the browser's copy being loaded, typing, while offline) go with the reply
      // instead: Yjs merges two histories of one text into a doubled text, which the server would store.
      const sendChanges = (on: boolean) => {
        ydoc.off('update', provider.boundDocumentUpdateHandler);
        if (on) ydoc.on('update', provider.boundDocumentUpdateHandler);
      };
      sendChanges(false);
      const startAfresh = () => {
        provider.detach();
        void local.clearData().finally(() => setRestarts((count) => count + 1));
      };
      provider.on('status', ({ status }: { status: string }) => {
        if (status !== 'connected') sendChanges(false);
      });

      void local.whenSynced.then(() => {
        markOpening('offline-copy-read');
        markReady();
        copyRead = true;
        refreshWaitsForSocket();
      });
      // The copy read as the route matched is in the document already: the editor opens from it at once, as it
      // would once the copy is read here (what other tabs wrote since merges in when it is).
      markReady();

      // A browser without a copy of the document opens it from the server's state fetched over HTTP (asked for as
      // the route matched) rather than waiting for the socket's first sync: connecting, authenticating and syncing
      // is the slowest part of opening a long document. That state is the server's own history, so what is typed
      // into it merges exactly like an offline copy's changes: held back until the socket's check above, then sent
      // once. A browser with a copy opens from it, and the socket brings what it lacks. Should a copy turn up with
      // content first anyway (one never synced), the request is cancelled.
      const serverState = new AbortController();
      if (serverStateAwaited) {
        void local.whenSynced.then(() => {
          if (!fragmentIsEmpty(editorDoc)) serverState.abort();
        });
        void fetchServerState(documentId, serverState.signal).then((state) => {
          serverStateAwaited = false;
          if (serverState.signal.aborted) return;
          if (state && !serverChecked) {
            // The copy is of a history the server no longer has (as the socket's check above would find).
            // Reading the state vector out of a whole book takes as long as applying it: only done where there
            // is a history to compare with; otherwise the document's own, once the state is in it, is remembered.
            if (local.knowsServerHistory() && !local.belongsTo(Y.encodeStateVectorFromUpdate(state))) {
              return startAfresh();
            }
            if (editorDoc === ydoc) local.applyServerState(state, serverState);
            else Y.applyUpdate(ydoc, state, serverState);
            local.rememberServer(Y.encodeStateVector(ydoc));
            markOpening('server-state-applied');
            markReady();
          }
          refreshWaitsForSocket();
        });
      }

      // The browser knows before the socket does: a dead connection would otherwise look 'Live' until the
      // provider's message timeout. Going offline closes the socket; coming back reconnects (with a fresh token).
      const onOffline = () => provider.disconnect();
      const onOnline = () => void provider.connect();
      window.addEventListener('offline', onOffline);
      window.addEventListener('online', onOnline);

      // A notice ('Document updated') when another user's change arrives (not our own echo, not the initial
      // load).
      const onAfterTransaction = (transaction: Y.Transaction) => {
        if (transaction.local || transaction.origin !== provider || !serverSynced) return;
        markReady();
        const changedClients = [...transaction.afterState.keys()].filter(
          (client) => (transaction.beforeState.get(client) ?? 0) < (transaction.afterState.get(client) ?? 0),
        );
        if (changedClients.length === 0) return;
        const states = awareness.getStates();
        const me = latest.current.user.id;
        // A change is made under a session's presence id, or with auto-save off under its draft's id.
        const authorOf = (client: number): string | undefined => {
          for (const [presence, state] of states) {
            if (presence === client || state.draftClientId === client) {
              return (state.user as { id?: string } | undefined)?.id;
            }
          }
          return undefined;
        };
        const fromSomeoneElse = changedClients.some((client) => authorOf(client) !== me);
        const now = Date.now();
        if (fromSomeoneElse && now - lastNotice > REMOTE_NOTICE_INTERVAL_MS) {
          lastNotice = now;
          latest.current.onRemoteChange?.();
        }
      };
      ydoc.on('afterTransaction', onAfterTransaction);

      setSession({
        ydoc: editorDoc,
        awareness,
        provider,
        discardLocalCopy: () => local.clearData(),
        ...(draft ? { manualSave: draft } : {}),
      });
      return () => {
        serverState.abort();
        window.removeEventListener('offline', onOffline);
        window.removeEventListener('online', onOnline);
        ydoc.off('afterTransaction', onAfterTransaction);
        provider.destroy();
        void local.destroy();
        awareness.destroy();
        draft?.destroy();
        ydoc.destroy();
        setSession(null);
        setLive(false);
        setReady(false);
        setWaitsForSocket(false);
      };
    };
    let waiting: ReturnType<typeof setTimeout> | undefined;
    if (early && early.value === undefined) {
      // Whichever comes first starts the session; `begin` ignores the other.
      waiting = setTimeout(begin, EARLY_READ_WAIT_MS);
      void early.read.finally(begin);
    } else {
      begin();
    }
    return () => {
      cancelled = true;
      clearTimeout(waiting);
      stop?.();
    };
  }, [documentId, autoSave, restarts, enabled, openFromServerState]);

  return { session, live, ready, waitsForSocket };
}
