import type { ServerDependencies } from '../dependencies';
import type { JSONContent } from '@tiptap/core';
import { getDocument, type DocumentRecord, type DocumentsContext, findDocumentOwner } from '../documents';
import { remarkOpenThreads } from '../comments';
import { conflict, notFound } from '../errors';
import { pageOf, type PageRequest } from '../pagination';
import { documentWordCount } from '../../shared/diff/document-diff';
import type { RichTextDoc } from '../../shared/schemas/richText';
import type { VersionAuthor, VersionReason } from '../../shared/schemas/versions';
import { AI_AUTHOR_KEY, EditTracker, SHARE_LINK_AUTHOR_KEY, userAuthorKey } from './edit-tracker';
import {
  deleteNamedVersion,
  findVersion,
  insertVersion,
  listVersions,
  listVersionsPage,
  newestVersionComparedTo,
  newestVersionTime,
  userNames,
  type VersionRecord,
  type VersionSummaryRecord,
} from './repository';
import { pruneVersions, RETENTION_SWEEP_INTERVAL_MS } from './retention';

/** An automatic version is taken at most this often while editing continues (and at the first change after). */
export const AUTO_VERSION_INTERVAL_MS = 10 * 60_000;

/** Automatic reasons that say nothing beyond "the document was like this" (see write). */
const GENERIC_REASONS = new Set<VersionReason>(['auto', 'session_end']);

/** Names shown for authors that are not users. */
const AUTHOR_NAMES: Record<string, string> = {
  [AI_AUTHOR_KEY]: 'AI',
  [SHARE_LINK_AUTHOR_KEY]: 'Share link editor',
};

export interface Clock {
  now(): Date;
}

export type VersionsDeps = Pick<ServerDependencies, 'db' | 'log'> & {
  documents: DocumentsContext;
  /** The body of the document as held live on this instance right now, or undefined when it is not loaded. */
  liveContent(documentId: string): JSONContent | undefined;
  clock?: Clock;
};

interface DocumentState {
  title: string;
  content: unknown;
}

/**
 * Version history rules: owner-only access (through the documents module's getDocument, so another user's
 * document is "not found"), the automatic triggers, restore, and retention after every new version.
 * See docs/version-history.md.
 */
export class VersionsService {
  readonly tracker = new EditTracker();
  /** Replaceable so tests can move time (the automatic trigger and retention read it). */
  clock: Clock;
  /** Versions of one document are taken one at a time, so two triggers at once cannot both write. */
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Newest version time per document as last seen here; only used to skip the database when clearly not due. */
  private readonly lastVersionAt = new Map<string, number>();
  /** When listing last pruned each document (by the service clock). */
  private readonly listPrunedAt = new Map<string, number>();

  constructor(private readonly deps: VersionsDeps) {
    this.clock = deps.clock ?? { now: () => new Date() };
  }

  async list(userId: string, documentId: string): Promise<VersionSummaryRecord[]> {
    await this.pruneBeforeListing(userId, documentId);
    return listVersions(this.deps.db, documentId);
  }

  /** A page of the versions (the REST list), newest first, and the cursor of the next page. */
  async listPage(
    userId: string,
    documentId: string,
    page: PageRequest,
  ): Promise<{ rows: VersionSummaryRecord[]; next: string | undefined }> {
    await this.pruneBeforeListing(userId, documentId);
    const rows = await listVersionsPage(this.deps.db, documentId, {
      limit: page.limit + 1,
      after: page.after,
    });
    const { rows: pageRows, next } = pageOf(rows, page.limit, (row) => row.place);
    return { rows: pageRows.map(({ place: _place, ...row }) => row), next };
  }

  private async pruneBeforeListing(userId: string, documentId: string): Promise<void> {
    await this.ownedDocument(userId, documentId);
    // Expired versions of a document nobody edits would otherwise wait for the hourly sweep.
    const now = this.clock.now();
    const prunedAt = this.listPrunedAt.get(documentId);
    if (prunedAt === undefined || now.getTime() - prunedAt >= RETENTION_SWEEP_INTERVAL_MS) {
      this.listPrunedAt.set(documentId, now.getTime());
      await pruneVersions(this.deps.db, now, documentId);
    }
  }

  async get(userId: string, documentId: string, versionId: string): Promise<VersionRecord> {
    await this.ownedDocument(userId, documentId);
    const version = await findVersion(this.deps.db, documentId, versionId);
    if (!version) throw notFound('Version not found', 'version_not_found');
    return version;
  }

  /** "Save version…": names the current state, always kept. */
  async saveNamed(userId: string, documentId: string, name: string): Promise<VersionRecord> {
    const document = await this.ownedDocument(userId, documentId);
    const version = await this.take(documentId, 'manual', this.currentState(document), { name });
    return version!;
  }

  /**
   * The client is about to replace content itself (an AI answer, an import): keep the current state first.
   * Returns undefined when the newest version already holds exactly this state. The AI is recorded as an
   * author of the next version, since its change follows.
   */
  async checkpoint(
    userId: string,
    documentId: string,
    reason: 'ai' | 'import',
  ): Promise<VersionRecord | undefined> {
    const document = await this.ownedDocument(userId, documentId);
    const version = await this.take(documentId, reason, this.currentState(document));
    this.tracker.record(documentId, reason === 'ai' ? AI_AUTHOR_KEY : userAuthorKey(userId));
    return version;
  }

  /**
   * Makes the document's title and content those of the version, for every connected editor (the document
   * writer changes a live document in one Yjs transaction), after keeping what it replaces as a `restore`
   * version. Open threads whose marks the version lacks are marked again where their quotes are found.
   */
  async restore(
    userId: string,
    documentId: string,
    versionId: string,
  ): Promise<{ document: DocumentRecord; replaced: VersionRecord | undefined }> {
    const document = await this.ownedDocument(userId, documentId);
    const version = await findVersion(this.deps.db, documentId, versionId);
    if (!version) throw notFound('Version not found', 'version_not_found');
    const replaced = await this.take(documentId, 'restore', this.currentState(document));
    const writer = this.deps.documents.documentWriter;
    // Valid when it was kept; repaired, never refused, should the rules have changed since.
    const content = writer.validate(version.content, 'repair');
    // Open threads whose marks this version lacks get them back where their quotes are, in the same write.
    const remarked = await remarkOpenThreads(this.deps, documentId, content.doc);
    const restored = await writer.update({
      userId,
      documentId,
      title: version.title,
      content: remarked ? writer.validate(remarked, 'repair') : content,
      source: 'restore',
    });
    return { document: restored, replaced };
  }

  async deleteNamed(userId: string, documentId: string, versionId: string): Promise<void> {
    await this.ownedDocument(userId, documentId);
    const outcome = await deleteNamedVersion(this.deps.db, documentId, versionId);
    if (outcome === 'missing') throw notFound('Version not found', 'version_not_found');
    if (outcome === 'not_named') {
      throw conflict(
        'Only named versions can be deleted; automatic versions are removed by retention',
        'version_not_deletable',
      );
    }
  }

  // ---- Triggers from the documents event stream (for a live document, the Y.Doc is the current state) ----

  /** An edit reached the live document through a connection. */
  recordLiveEdit(documentId: string, editor: { userId: string } | 'share-link'): void {
    this.tracker.record(
      documentId,
      editor === 'share-link' ? SHARE_LINK_AUTHOR_KEY : userAuthorKey(editor.userId),
    );
  }

  /** The document writer replaced the content for this user (REST, restore): an author of the next version. */
  recordRestEdit(documentId: string, userId: string): void {
    this.tracker.record(documentId, userAuthorKey(userId));
  }

  /**
   * After the live document was stored: an `auto` version when it has unversioned changes and the newest
   * version is at least AUTO_VERSION_INTERVAL_MS old (or there is none).
   */
  async afterLiveStore(documentId: string, content: JSONContent): Promise<void> {
    if (!this.tracker.hasChanges(documentId) || !(await this.autoVersionDue(documentId))) return;
    const stored = await this.storedState(documentId);
    if (stored) await this.take(documentId, 'auto', { title: stored.title, content });
  }

  /**
   * The last editor left a live document that changed while it was live (everything is stored): a
   * `session_end` version of the stored state, unless the newest version already holds it.
   */
  async liveSessionEnded(documentId: string): Promise<void> {
    const state = await this.storedState(documentId);
    if (state) await this.take(documentId, 'session_end', state);
  }

  /**
   * A REST write (or an import) is about to replace the content: the state it replaces is kept as an
   * `auto` version when no version was taken in the last AUTO_VERSION_INTERVAL_MS, so writers who never
   * open the live editor get the same time-based history.
   */
  async beforeRestReplace(documentId: string): Promise<void> {
    if (!(await this.autoVersionDue(documentId))) return;
    const state = await this.storedState(documentId);
    if (state) await this.take(documentId, 'auto', state);
  }

  /** The document was deleted: nothing pending for it any more (its versions go with it). */
  documentDeleted(documentId: string): void {
    this.tracker.forget(documentId);
    this.lastVersionAt.delete(documentId);
    this.listPrunedAt.delete(documentId);
  }

  // ---- internals ----

  private async ownedDocument(userId: string, documentId: string): Promise<DocumentRecord> {
    return getDocument(this.deps.documents, userId, documentId);
  }

  /** Whether the newest version is at least AUTO_VERSION_INTERVAL_MS old (or there is none). */
  private async autoVersionDue(documentId: string): Promise<boolean> {
    const now = this.clock.now().getTime();
    const seen = this.lastVersionAt.get(documentId);
    if (seen !== undefined && now - seen < AUTO_VERSION_INTERVAL_MS) return false;
    const newest = await newestVersionTime(this.deps.db, documentId);
    if (!newest) return true;
    this.lastVersionAt.set(documentId, newest.getTime());
    return now - newest.getTime() >= AUTO_VERSION_INTERVAL_MS;
  }

  /** The document's title and content as the documents table holds them, or undefined when it is gone. */
  private async storedState(documentId: string): Promise<DocumentState | undefined> {
    const owner = await findDocumentOwner(this.deps.db, documentId);
    if (!owner) return undefined;
    const document = await getDocument(this.deps.documents, owner, documentId).catch(() => undefined);
    if (!document) return undefined;
    return { title: document.title, content: this.deps.liveContent(documentId) ?? document.content };
  }

  /** The state a version of "now" holds: the live body when loaded here (newer than the stored one). */
  private currentState(document: DocumentRecord): DocumentState {
    return { title: document.title, content: this.deps.liveContent(document.id) ?? document.content };
  }

  /**
   * Writes a version of `state`. Automatic ones (no name) are skipped when the newest version already holds
   * exactly this title and content (for `ai`, `import` and `restore`: and has the same reason); the pending
   * authors are then dropped, since nothing is unversioned.
   */
  private take(
    documentId: string,
    reason: VersionReason,
    state: DocumentState,
    options: { name?: string } = {},
  ): Promise<VersionRecord | undefined> {
    const previous = this.queues.get(documentId) ?? Promise.resolve();
    const next = previous
      .catch(() => {})
      .then(() => this.write(documentId, reason, state, options.name ?? null));
    this.queues.set(documentId, next);
    // Callers await `next` and see its failure; this bookkeeping branch must not become an unhandled rejection.
    const forget = () => {
      if (this.queues.get(documentId) === next) this.queues.delete(documentId);
    };
    next.then(forget, forget);
    return next;
  }

  private async write(
    documentId: string,
    reason: VersionReason,
    state: DocumentState,
    name: string | null,
  ): Promise<VersionRecord | undefined> {
    const { db } = this.deps;
    if (name === null) {
      const newest = await newestVersionComparedTo(db, documentId, state);
      // The generic triggers never repeat a state; "before an AI change / import / restore" is still
      // written after another kind of version of the same state, so the history says what happened.
      if (newest?.same && (GENERIC_REASONS.has(reason) || newest.reason === reason)) {
        this.tracker.take(documentId);
        return undefined;
      }
    }
    const authorKeys = this.tracker.take(documentId);
    try {
      const createdAt = this.clock.now();
      const version = await insertVersion(db, {
        documentId,
        reason,
        name,
        title: state.title,
        content: state.content,
        authors: await this.authorsOf(authorKeys),
        wordCount: documentWordCount(state.content as RichTextDoc),
        createdAt,
      });
      this.lastVersionAt.set(documentId, createdAt.getTime());
      await pruneVersions(db, createdAt, documentId).catch((error: unknown) =>
        this.deps.log.warn({ err: error, documentId }, 'pruning versions failed'),
      );
      return version;
    } catch (error) {
      this.tracker.giveBack(documentId, authorKeys);
      throw error;
    }
  }

  private async authorsOf(keys: readonly string[]): Promise<VersionAuthor[]> {
    const userIds = keys.filter((key) => key.startsWith('user:')).map((key) => key.slice('user:'.length));
    const names = await userNames(this.deps.db, userIds);
    return keys.map((key) => {
      if (key.startsWith('user:')) {
        const id = key.slice('user:'.length);
        return { id, name: names.get(id) ?? 'Former user' };
      }
      return { id: key, name: AUTHOR_NAMES[key] ?? key };
    });
  }
}
