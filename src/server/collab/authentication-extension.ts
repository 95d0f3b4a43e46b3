import type {
  beforeHandleMessagePayload,
  Connection,
  Extension,
  Hocuspocus,
  onAuthenticatePayload,
  onConfigurePayload,
  onTokenSyncPayload,
} from '@hocuspocus/server';
import {
  COLLAB_ACCESS_RECHECK_MS,
  COLLAB_CLOSE,
  encodeStatelessMessage,
} from '../../shared/editor/collab-protocol';
import {
  authenticateCollabToken,
  lookUpUserAccess,
  resolveDocumentAccess,
  type AccessDeps,
  type CollabPrincipal,
  type DocumentAccess,
  type UserConnection,
} from './access';
import { can } from '../documents';
import { isSessionSignedIn } from '../plugins';

/** Per-connection access state, kept in the Hocuspocus connection context and mutated in place. */
export interface ConnectionAuth {
  principal: CollabPrincipal;
  access: DocumentAccess;
  /** Date.now() of the last successful access decision. */
  checkedAt: number;
  /**
   * Where the decision came from: the access-change count when its database reads began, and Date.now()
   * then. While that count stands, nothing that could change the decision has been written since.
   */
  lookedUp: DecisionSource;
}

interface DecisionSource {
  changes: number;
  at: number;
}

/**
 * A lookup failed for another reason than a refusal (the database is down or lost the connection). Hocuspocus
 * would report it to the provider as "permission-denied" on connect, or close the document's connection on a
 * message — and in both cases the provider keeps its socket open and waits, unauthenticated, for its message
 * timeout (30 s) before it reconnects: editing stalled for 30 s after every database blip. Closing the whole
 * socket instead makes it reconnect at once (with its back-off) and re-send what was not acknowledged.
 */
function closeIfUnavailable(error: unknown, context: CollabContext): void {
  const refusal =
    typeof error === 'object' &&
    error !== null &&
    typeof (error as CollabRefusal).code === 'number' &&
    typeof (error as CollabRefusal).reason === 'string';
  if (!refusal) context.closeSocket?.(COLLAB_CLOSE.unavailable);
}

/**
 * Longest time a signed-in user's decision is trusted without reading the database, however quiet the
 * access-change feed. A safety net only: the embedded database reports every such write.
 */
const OWNER_DECISION_MAX_AGE_MS = 30_000;

export interface CollabContext {
  auth?: ConnectionAuth;
  /** Closes the whole WebSocket this connection runs on (set by collab-plugin for every socket). */
  closeSocket?: (close: { code: number; reason: string }) => void;
}

/** What Hocuspocus expects a refusing hook to throw: it reports `reason` to the provider. */
interface CollabRefusal {
  code: number;
  reason: string;
}

// A plain object, not an Error: Hocuspocus logs every hook error that has a message, and a refused
// connection is an expected outcome, not a server fault.
const refuse = (close: { code: number; reason: string }): CollabRefusal => ({
  code: close.code,
  reason: close.reason,
});

/**
 * Who may open a live document, decided on connect (the provider's token) and re-decided while the
 * connection lives. A sweep every half COLLAB_ACCESS_RECHECK_MS re-decides every connection of this
 * instance at once: all signed-in users' connections in one statement (sessions still active, owners of
 * the documents), share visitors once per token and document. A connection that lost access is closed by
 * the sweep, idle or not. Messages go through on a decision younger than the whole window, so a writer
 * never waits for the database; should the sweep fall behind (slow or failing database), a message waits
 * for a fresh decision of its own, and nothing is applied on a decision older than the window. Share
 * changes and deletions re-decide at once (revalidateDocument). On the embedded database, which reports
 * every write that could take access away (Database.watchAccessChanges), the sweep reads a signed-in
 * user's session and document again only after such a write (or after OWNER_DECISION_MAX_AGE_MS): an
 * unchanged database cannot have changed the decision, and reading it would cost the main thread, where
 * PGlite runs. See docs/collaboration.md.
 */
export class AuthenticationExtension implements Extension {
  extensionName = 'QuillwrightAuthentication';
  // Runs before persistence (100) loads anything.
  priority = 200;

  private instance: Hocuspocus | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  /** Writes that could take access away, as the database reported them (embedded database only). */
  private accessChanges = 0;
  private stopWatching: (() => Promise<void>) | undefined;

  constructor(
    private readonly deps: AccessDeps,
    private readonly recheckMs = COLLAB_ACCESS_RECHECK_MS,
  ) {}

  async onConfigure({ instance }: onConfigurePayload) {
    this.instance = instance;
    clearInterval(this.sweepTimer);
    this.sweepTimer = setInterval(() => void this.sweep(), this.recheckMs / 2);
    // The sweep never keeps the process alive; shutdown also stops it (onDestroy).
    this.sweepTimer.unref();
    if (this.deps.database.watchAccessChanges && !this.stopWatching) {
      this.stopWatching = await this.deps.database.watchAccessChanges(() => {
        this.accessChanges += 1;
      });
    }
  }

  async onDestroy() {
    clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    await this.stopWatching?.();
    this.stopWatching = undefined;
  }

  /** Captured before a decision's database reads begin (see ConnectionAuth.lookedUp). */
  private decisionSource(): DecisionSource {
    return { changes: this.accessChanges, at: Date.now() };
  }

  /**
   * A signed-in user's decision still holds without a lookup: the database reports access changes, none
   * has come since the decision's reads began, and those reads are recent.
   */
  private ownerDecisionHolds(auth: ConnectionAuth, now: number): boolean {
    return (
      this.stopWatching !== undefined &&
      auth.principal.kind === 'user' &&
      auth.lookedUp.changes === this.accessChanges &&
      now - auth.lookedUp.at < OWNER_DECISION_MAX_AGE_MS
    );
  }

  async onAuthenticate({
    token,
    documentName,
    connectionConfig,
    context,
  }: onAuthenticatePayload<CollabContext>) {
    const lookedUp = this.decisionSource();
    try {
      const principal = await authenticateCollabToken(this.deps, token);
      if (!principal) throw refuse(COLLAB_CLOSE.unauthorized);
      const access = await resolveDocumentAccess(this.deps, principal, documentName);
      if (!access) throw refuse(COLLAB_CLOSE.notFound);
      // A role without `openLive` (a view-only link visitor) reads the saved copy over REST, which leaves
      // out pending suggestions unless the owner shows them; the live document holds every suggestion.
      if (!can(access, 'openLive')) throw refuse(COLLAB_CLOSE.viewOnly);
      connectionConfig.readOnly = readOnly(access);
      const auth: ConnectionAuth = { principal, access, checkedAt: Date.now(), lookedUp };
      return { auth } satisfies CollabContext;
    } catch (error) {
      closeIfUnavailable(error, context);
      throw error;
    }
  }

  /** The provider sent a fresh token (HocuspocusProvider#sendToken): switch to it if it still grants access. */
  async onTokenSync({ token, documentName, context, connection }: onTokenSyncPayload<CollabContext>) {
    const lookedUp = this.decisionSource();
    const principal = await authenticateCollabToken(this.deps, token);
    if (!principal) throw refuse(COLLAB_CLOSE.unauthorized);
    const access = await resolveDocumentAccess(this.deps, principal, documentName);
    if (!access || !can(access, 'openLive')) throw refuse(COLLAB_CLOSE.accessRevoked);
    if (context.auth) {
      context.auth.principal = principal;
      context.auth.access = access;
      context.auth.checkedAt = Date.now();
      context.auth.lookedUp = lookedUp;
    }
    connection.readOnly = readOnly(access);
  }

  async beforeHandleMessage({
    context,
    documentName,
    connection,
  }: beforeHandleMessagePayload<CollabContext>) {
    const auth = context.auth;
    if (!auth) throw refuse(COLLAB_CLOSE.unauthorized);
    // The sweep refreshes every decision twice per window; this is the hot path of every keystroke.
    if (Date.now() - auth.checkedAt < this.recheckMs) return;
    // The sweep is behind: this message waits for a fresh decision and is refused without access.
    let allowed: boolean;
    try {
      allowed = await this.recheck(auth, documentName, connection);
    } catch (error) {
      closeIfUnavailable(error, context);
      throw error;
    }
    if (!allowed) throw refuse(COLLAB_CLOSE.accessRevoked);
  }

  /**
   * Re-decides every connection of this instance now and closes those that lost access. One sweep at a
   * time: a call while one runs waits for it.
   */
  sweep(): Promise<void> {
    this.sweeping ??= this.runSweep()
      .catch(() => {
        // A failed lookup decides nothing: decisions age, and past the window messages re-check themselves.
      })
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }

  private async runSweep(): Promise<void> {
    if (!this.instance) return;
    const at = Date.now();
    const source = this.decisionSource();
    const live: {
      auth: ConnectionAuth;
      principal: CollabPrincipal;
      documentName: string;
      connection: Connection;
    }[] = [];
    const users: UserConnection[] = [];
    for (const [documentName, document] of this.instance.documents) {
      for (const connection of document.getConnections()) {
        const auth = (connection.context as CollabContext).auth;
        if (!auth) continue;
        if (this.ownerDecisionHolds(auth, at)) {
          auth.checkedAt = at;
          continue;
        }
        live.push({ auth, principal: auth.principal, documentName, connection });
        if (auth.principal.kind === 'user') {
          const { userId, sessionId } = auth.principal;
          users.push({ userId, sessionId, documentId: documentName });
        }
      }
    }
    if (live.length === 0) return;
    const userAccess = users.length > 0 ? lookUpUserAccess(this.deps, users) : undefined;
    // Share visitors: one verification per token and document (a share token names its document).
    const shared = new Map<string, Promise<DocumentAccess | null>>();
    for (const { principal, documentName } of live) {
      if (principal.kind !== 'share') continue;
      const key = `${principal.token}\u0000${documentName}`;
      if (!shared.has(key)) shared.set(key, resolveDocumentAccess(this.deps, principal, documentName));
    }
    // Settled together, so no lookup is left rejecting unobserved when another fails.
    const [accessOfUser] = await Promise.all([userAccess, ...shared.values()]);
    for (const { auth, principal, documentName, connection } of live) {
      let access: DocumentAccess | null;
      if (principal.kind === 'user') {
        const { userId, sessionId } = principal;
        access = accessOfUser?.({ userId, sessionId, documentId: documentName }) ?? null;
      } else {
        access = await shared.get(`${principal.token}\u0000${documentName}`)!;
      }
      // A token switch (onTokenSync) while the sweep ran has its own, newer decision.
      if (auth.principal !== principal || auth.checkedAt > at) continue;
      if (!access || !can(access, 'openLive')) {
        connection.close(COLLAB_CLOSE.accessRevoked);
        continue;
      }
      // A role can change without an event naming this document (a folder above it shared or moved): the
      // client hears the new role from the sweep as it would from revalidateDocument.
      const changed = auth.access !== access;
      auth.access = access;
      auth.checkedAt = at;
      auth.lookedUp = source;
      connection.readOnly = readOnly(access);
      if (changed) connection.sendStateless(encodeStatelessMessage({ type: 'access', role: access }));
    }
  }

  /**
   * Re-decides every connection of a loaded document now (share settings changed, document deleted)
   * and closes the ones that lost access.
   */
  async revalidateDocument(instance: Hocuspocus, documentName: string): Promise<void> {
    const document = instance.documents.get(documentName);
    if (!document) return;
    await Promise.all(
      document.getConnections().map(async (connection) => {
        const auth = (connection.context as CollabContext).auth;
        if (!auth || !(await this.recheck(auth, documentName, connection, { fresh: true }))) {
          connection.close(COLLAB_CLOSE.accessRevoked);
        }
      }),
    );
  }

  /**
   * Re-decides one connection's access. Connections of the same session (or share token) on the same
   * document share one decision per re-check window, so a user with many tabs, or a crowd on one share
   * link, costs one lookup per window rather than one per connection.
   */
  private async recheck(
    auth: ConnectionAuth,
    documentName: string,
    connection: Connection,
    options: { fresh?: boolean } = {},
  ): Promise<boolean> {
    const maxAge = options.fresh ? 0 : this.recheckMs / 2;
    const { source, decision } = this.decide(auth.principal, documentName, maxAge);
    const access = await decision;
    if (!access || !can(access, 'openLive')) return false;
    const changed = auth.access !== access;
    auth.access = access;
    if (changed) connection.sendStateless(encodeStatelessMessage({ type: 'access', role: access }));
    // The decision's own time, so a shared decision never extends the window.
    auth.checkedAt = source.at;
    auth.lookedUp = source;
    connection.readOnly = readOnly(access);
    return true;
  }

  private readonly decisions = new Map<
    string,
    { source: DecisionSource; decision: Promise<DocumentAccess | null> }
  >();

  private decide(
    principal: CollabPrincipal,
    documentName: string,
    maxAgeMs: number,
  ): { source: DecisionSource; decision: Promise<DocumentAccess | null> } {
    const key = `${principal.kind === 'user' ? principal.sessionId : principal.token}\u0000${documentName}`;
    const source = this.decisionSource();
    const now = source.at;
    const cached = this.decisions.get(key);
    if (cached && now - cached.source.at < maxAgeMs && cached.source.changes === source.changes)
      return cached;
    const decision = (async () => {
      if (
        principal.kind === 'user' &&
        !(await isSessionSignedIn(this.deps.database, principal.userId, principal.sessionId))
      ) {
        return null;
      }
      return resolveDocumentAccess(this.deps, principal, documentName);
    })();
    const entry = { source, decision };
    this.decisions.set(key, entry);
    // Forget a failed lookup at once, and keep the map small: drop entries older than a window.
    decision.catch(() => this.decisions.delete(key));
    if (this.decisions.size > 10_000) {
      for (const [k, old] of this.decisions)
        if (now - old.source.at >= this.recheckMs) this.decisions.delete(k);
    }
    return entry;
  }
}

/** A connection whose role may neither write nor suggest only receives. */
function readOnly(access: DocumentAccess): boolean {
  return !can(access, 'write') && !can(access, 'suggest');
}
