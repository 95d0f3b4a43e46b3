import type {
  beforeHandleMessagePayload,
  Connection,
  Extension,
  Hocuspocus,
  onAuthenticatePayload,
  onTokenSyncPayload,
} from '@hocuspocus/server';
import { COLLAB_ACCESS_RECHECK_MS, COLLAB_CLOSE } from '../../shared/editor/collab-protocol';
import {
  authenticateCollabToken,
  isSessionActive,
  resolveDocumentAccess,
  type AccessDeps,
  type CollabPrincipal,
  type DocumentAccess,
} from './access';

/** Per-connection access state, kept in the Hocuspocus connection context and mutated in place. */
export interface ConnectionAuth {
  principal: CollabPrincipal;
  access: DocumentAccess;
  /** Date.now() of the last successful access decision. */
  checkedAt: number;
  /** A background re-check is running. */
  refreshing?: boolean;
}

export interface CollabContext {
  auth?: ConnectionAuth;
}

/** What Hocuspocus expects a refusing hook to throw: it reports `reason` to the provider. */
export interface CollabRefusal {
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
 * connection lives, on every inbound message: a decision younger than half of COLLAB_ACCESS_RECHECK_MS is
 * trusted; an older one is refreshed in the background while the message goes through; one older than the
 * whole window makes the message wait for a fresh decision. So nothing is applied on a decision older than
 * the window, a sign-out or a deleted document ends the connection within it, and a steady writer never
 * waits for the database. Share changes and deletions re-decide at once (revalidateDocument).
 */
export class AuthenticationExtension implements Extension {
  extensionName = 'QuillwrightAuthentication';
  // Runs before persistence (100) loads anything.
  priority = 200;

  constructor(
    private readonly deps: AccessDeps,
    private readonly recheckMs = COLLAB_ACCESS_RECHECK_MS,
  ) {}

  async onAuthenticate({ token, documentName, connectionConfig }: onAuthenticatePayload<CollabContext>) {
    const principal = await authenticateCollabToken(this.deps, token);
    if (!principal) throw refuse(COLLAB_CLOSE.unauthorized);
    const access = await resolveDocumentAccess(this.deps, principal, documentName);
    if (!access) throw refuse(COLLAB_CLOSE.notFound);
    connectionConfig.readOnly = access === 'viewer';
    const auth: ConnectionAuth = { principal, access, checkedAt: Date.now() };
    return { auth } satisfies CollabContext;
  }

  /** The provider sent a fresh token (HocuspocusProvider#sendToken): switch to it if it still grants access. */
  async onTokenSync({ token, documentName, context, connection }: onTokenSyncPayload<CollabContext>) {
    const principal = await authenticateCollabToken(this.deps, token);
    if (!principal) throw refuse(COLLAB_CLOSE.unauthorized);
    const access = await resolveDocumentAccess(this.deps, principal, documentName);
    if (!access) throw refuse(COLLAB_CLOSE.accessRevoked);
    if (context.auth) {
      context.auth.principal = principal;
      context.auth.access = access;
      context.auth.checkedAt = Date.now();
    }
    connection.readOnly = access === 'viewer';
  }

  async beforeHandleMessage({
    context,
    documentName,
    connection,
  }: beforeHandleMessagePayload<CollabContext>) {
    const auth = context.auth;
    if (!auth) throw refuse(COLLAB_CLOSE.unauthorized);
    const age = Date.now() - auth.checkedAt;
    if (age < this.recheckMs / 2) return;
    if (age < this.recheckMs) {
      // Still within the window: let the message through and refresh in the background, so a writer
      // typing steadily never waits for the database; a lost access closes the connection when found.
      if (!auth.refreshing) {
        auth.refreshing = true;
        this.recheck(auth, documentName, connection)
          .then((allowed) => {
            if (!allowed) connection.close(COLLAB_CLOSE.accessRevoked);
          })
          .catch(() => {
            // A failed lookup decides nothing; the hard limit below re-checks on the next message.
          })
          .finally(() => {
            auth.refreshing = false;
          });
      }
      return;
    }
    // Past the window: this message waits for a fresh decision and is refused without access.
    if (!(await this.recheck(auth, documentName, connection))) throw refuse(COLLAB_CLOSE.accessRevoked);
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
    const { at, decision } = this.decide(auth.principal, documentName, maxAge);
    const access = await decision;
    if (!access) return false;
    auth.access = access;
    // The decision's own time, so a shared decision never extends the window.
    auth.checkedAt = at;
    connection.readOnly = access === 'viewer';
    return true;
  }

  private readonly decisions = new Map<string, { at: number; decision: Promise<DocumentAccess | null> }>();

  private decide(
    principal: CollabPrincipal,
    documentName: string,
    maxAgeMs: number,
  ): { at: number; decision: Promise<DocumentAccess | null> } {
    const key = `${principal.kind === 'user' ? principal.sessionId : principal.token}\u0000${documentName}`;
    const now = Date.now();
    const cached = this.decisions.get(key);
    if (cached && now - cached.at < maxAgeMs) return cached;
    const decision = (async () => {
      if (
        principal.kind === 'user' &&
        !(await isSessionActive(this.deps, principal.userId, principal.sessionId))
      ) {
        return null;
      }
      return resolveDocumentAccess(this.deps, principal, documentName);
    })();
    const entry = { at: now, decision };
    this.decisions.set(key, entry);
    // Forget a failed lookup at once, and keep the map small: drop entries older than a window.
    decision.catch(() => this.decisions.delete(key));
    if (this.decisions.size > 10_000) {
      for (const [k, old] of this.decisions) if (now - old.at >= this.recheckMs) this.decisions.delete(k);
    }
    return entry;
  }
}
