import websocket from '@fastify/websocket';
import { refuseForeignOrigin } from './allowed-origins';
import { Hocuspocus, type Extension, type WebSocketLike } from '@hocuspocus/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import {
  COLLAB_LIMITS,
  COLLAB_PATH,
  COLLAB_STORE_DEBOUNCE_MS,
  COLLAB_STORE_MAX_DEBOUNCE_MS,
} from '../../shared/editor/collab-protocol';
import { SuggestionGuardExtension } from './suggestion-guard';
import { AuthenticationExtension, type CollabContext } from './authentication-extension';
import { DocumentSizeLimitExtension, SocketLimiter } from './connection-limits';
import { LiveDocuments } from './live-documents';
import { PersistenceExtension } from './persistence-extension';

/**
 * Largest WebSocket frame `ws` reads at all. Above COLLAB_LIMITS.maxMessageBytes so that a message between
 * the two is refused by SocketLimiter, which tells the client why (`ws` would close with a bare 1009).
 */
export const COLLAB_MAX_FRAME_BYTES = 2 * COLLAB_LIMITS.maxMessageBytes;
/**
 * Messages from this size on go out compressed (permessage-deflate) to a browser that offers it, which every
 * browser does: a first sync or a reconnect's catch-up, which for a book is the whole document (658 KB for a
 * 100,000-word book in docs/collaboration.md, 82 KB compressed). Keystrokes, carets and acknowledgements (well
 * under a kilobyte) go as they are, so they never wait for zlib.
 */
const COLLAB_COMPRESS_MIN_BYTES = 16 * 1024;
/** How long shutdown waits for live documents to be stored before giving up. */
const SHUTDOWN_FLUSH_TIMEOUT_MS = 8_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The live-document side of REST writes (see src/server/collab/live-documents.ts). */
    liveDocuments: LiveDocuments;
    /** The Hocuspocus instance behind /api/collab (tests and benchmarks inspect it). */
    hocuspocus: Hocuspocus;
  }
}

function toUint8Array(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** The upgrade request as a Fetch Request, which is what Hocuspocus 4 hands to its hooks. */
function toFetchRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    try {
      if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      else headers.set(name, value);
    } catch {
      // A header the Fetch API refuses carries nothing the collaboration hooks read.
    }
  }
  return new Request(new URL(request.url, 'http://localhost'), { headers });
}

/**
 * Collaboration on the app's own port: Hocuspocus behind `GET /api/collab` (WebSocket), with one
 * extension per concern (authentication, persistence through the document writer, Redis scale-out when
 * REDIS_URL is set), and `app.liveDocuments` for the document writer and the documents event stream. Call from buildApp before the routes are registered.
 * On close, live documents are stored before the database is closed (main.ts closes the app first).
 */
export async function registerCollaboration(app: FastifyInstance): Promise<void> {
  const { config, database } = app;
  const { documentWriter, documentEvents } = app.deps;
  const log = app.log.child({ module: 'collab' });

  const authentication = new AuthenticationExtension({ config, database });
  const persistence = new PersistenceExtension({
    storage: documentWriter.liveStorage(),
    events: documentEvents,
    log,
  });
  // Loaded only when configured: a single instance never holds a Redis client.
  const redis = config.REDIS_URL
    ? (await import('./redis-scale-out')).createRedisScaleOut(config.REDIS_URL, config.REDIS_PREFIX, log)
    : undefined;
  const extensions: Extension[] = [
    authentication,
    new DocumentSizeLimitExtension(),
    new SuggestionGuardExtension(),
    persistence,
  ];
  if (redis) {
    extensions.push(redis);
    app.deps.metrics.watchRedis('collab_pub', redis.pub);
    app.deps.metrics.watchRedis('collab_sub', redis.sub);
  }

  const hocuspocus = new Hocuspocus({
    name: 'quillwright',
    quiet: true,
    debounce: COLLAB_STORE_DEBOUNCE_MS,
    maxDebounce: COLLAB_STORE_MAX_DEBOUNCE_MS,
    unloadImmediately: true,
    extensions,
  });
  const liveDocuments = new LiveDocuments(hocuspocus, authentication, persistence, redis);
  app.decorate('hocuspocus', hocuspocus);
  app.decorate('liveDocuments', liveDocuments);
  // Changes of live documents go through their Y.Doc (documents/writer.ts).
  documentWriter.attachLiveDocuments(liveDocuments);
  // Connected editors follow what happens to their document.
  documentEvents.on('title.changed', ({ documentId, title }) =>
    liveDocuments.titleChanged(documentId, title),
  );
  documentEvents.on('comments.changed', ({ documentId }) => liveDocuments.commentsChanged(documentId));
  documentEvents.on('access.changed', ({ documentId }) => liveDocuments.accessChanged(documentId));
  documentEvents.on('trashed', ({ documentId }) => liveDocuments.accessChanged(documentId));
  documentEvents.on('deleted', ({ documentId }) => liveDocuments.accessChanged(documentId));

  let socketServer: WebSocketServer | undefined;

  // The socket lives in its own encapsulated scope so @fastify/websocket only touches this route.
  await app.register(async (scope) => {
    await scope.register(websocket, {
      options: {
        maxPayload: COLLAB_MAX_FRAME_BYTES,
        perMessageDeflate: {
          threshold: COLLAB_COMPRESS_MIN_BYTES,
          // A quick level: the whole book is compressed for each reader that joins (8–20 ms for 100,000 words,
          // docs/collaboration.md). No context kept between messages on either side, so an
          // idle connection holds no compression history.
          zlibDeflateOptions: { level: 3 },
          serverNoContextTakeover: true,
          clientNoContextTakeover: true,
        },
      },
      // Shutdown is handled below (documents first, sockets after).
      preClose: (done) => done(),
    });
    socketServer = scope.websocketServer;
    const preValidation = refuseForeignOrigin(app.config);
    scope.get(COLLAB_PATH, { websocket: true, preValidation }, (socket: WebSocket, request) => {
      const connection = hocuspocus.handleConnection(
        socket as unknown as WebSocketLike,
        toFetchRequest(request),
        {
          closeSocket: ({ code, reason }) => socket.close(code, reason),
        } satisfies CollabContext,
      );
      const limiter = new SocketLimiter();
      let refused = false;
      socket.on('message', (data: RawData) => {
        if (refused) return;
        const message = toUint8Array(data);
        const refusal = limiter.accept(message.byteLength);
        if (refusal) {
          // Told why, then disconnected. Messages accepted before this one are applied and stored as usual.
          refused = true;
          log.info({ reason: refusal.reason }, 'collaboration connection over its limits; closing it');
          socket.close(refusal.code, refusal.reason);
          return;
        }
        connection.handleMessage(message);
      });
      socket.on('close', (code: number, reason: Buffer) =>
        connection.handleClose({ code, reason: reason.toString('utf8') }),
      );
    });
  });

  app.addHook('preClose', async () => {
    // Ends every document connection; the last one out stores its document at once.
    hocuspocus.closeConnections();
    hocuspocus.flushPendingStores();
    const deadline = Date.now() + SHUTDOWN_FLUSH_TIMEOUT_MS;
    while (
      (hocuspocus.getDocumentsCount() > 0 || hocuspocus.loadingDocuments.size > 0) &&
      Date.now() < deadline
    ) {
      hocuspocus.flushPendingStores();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The last editor's departure runs the unload hooks (a `session_end` version); they need the database,
    // which closes right after the app.
    await Promise.race([
      persistence.unloadHooksSettled(),
      new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()))),
    ]);
    if (hocuspocus.getDocumentsCount() > 0) {
      log.error(
        { documents: hocuspocus.getDocumentsCount() },
        'shutdown: some live documents were not stored',
      );
    }
    for (const client of socketServer?.clients ?? []) client.terminate();
    await new Promise<void>((resolve) => (socketServer ? socketServer.close(() => resolve()) : resolve()));
    await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
  });
}
