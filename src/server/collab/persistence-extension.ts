import type { Extension, onLoadDocumentPayload, onStoreDocumentPayload } from '@hocuspocus/server';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import * as Y from 'yjs';
import { COLLAB_CLOSE, encodeStatelessMessage, encodeStateVector } from '../../shared/editor/collab-protocol';
import type { Database, Db } from '../db/client';
import { documents } from '../db/schema';
import { contentToYDoc, yDocToContent } from './content';

/** Context of the transaction that triggered a store; set by LiveDocuments for REST replacements. */
export interface StoreContext {
  restVersion?: number;
}

export interface PersistenceDeps {
  database: Database;
  log: FastifyBaseLogger;
}

/**
 * Loads and stores live documents in the documents table.
 *
 * Load: the Yjs state (ydoc_state); a document that has never been live gets its first Yjs state built
 * from the JSON `content` and claimed with a compare-and-set, so two instances opening it at once start
 * from the same state instead of merging two copies of the text.
 *
 * Store (debounced by Hocuspocus): ydoc_state, the JSON `content` derived from it, and — only when that
 * content changed — version + 1 and updated_at in one UPDATE (a REST replacement already took its version). Then every client of the document gets a
 * `stored` stateless message (state vector, version, updatedAt) so its save indicator can say "Saved"
 * for exactly the edits that are in the database. See docs/collaboration.md.
 */
export class PersistenceExtension implements Extension {
  extensionName = 'QuillwrightPersistence';

  constructor(private readonly deps: PersistenceDeps) {}

  /** The last store's turn; each store starts one event-loop iteration after the previous one started. */
  private pacing: Promise<void> = Promise.resolve();

  /**
   * Stores take turns, one per event-loop iteration, so the messages that arrive meanwhile are handled
   * between two stores. Documents that started together hit their debounce deadline together (a
   * reconnect after a restart; every bench:collab run), and with PGlite each store's UPDATE runs on this
   * thread: ten stores back to back held every socket for 30–40 ms. Only the start is paced: with
   * PostgreSQL the writes still overlap.
   */
  private takeTurn(): Promise<void> {
    const turn = this.pacing.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.pacing = turn;
    return turn;
  }

  async onLoadDocument({ documentName, document }: onLoadDocumentPayload) {
    const { db } = this.deps.database;
    const [row] = await db
      .select({ ydocState: documents.ydocState, content: documents.content })
      .from(documents)
      .where(eq(documents.id, documentName))
      .limit(1);
    if (!row) throw { code: COLLAB_CLOSE.notFound.code, reason: COLLAB_CLOSE.notFound.reason };
    if (row.ydocState) {
      Y.applyUpdate(document, row.ydocState);
      return;
    }
    const built = contentToYDoc(row.content);
    const initial = Y.encodeStateAsUpdate(built);
    built.destroy();
    const claimed = await db
      .update(documents)
      .set({ ydocState: initial })
      .where(and(eq(documents.id, documentName), isNull(documents.ydocState)))
      .returning({ id: documents.id });
    if (claimed.length > 0) {
      Y.applyUpdate(document, initial);
      return;
    }
    // Another instance (or a concurrent load) claimed the first state: use theirs.
    const [winner] = await db
      .select({ ydocState: documents.ydocState })
      .from(documents)
      .where(eq(documents.id, documentName))
      .limit(1);
    if (!winner?.ydocState) throw { code: COLLAB_CLOSE.notFound.code, reason: COLLAB_CLOSE.notFound.reason };
    Y.applyUpdate(document, winner.ydocState);
  }

  async onStoreDocument({ documentName, document, lastContext }: onStoreDocumentPayload<StoreContext>) {
    await this.takeTurn();
    // Captured in one synchronous step, so the state vector describes exactly what is written.
    const state = Y.encodeStateAsUpdate(document);
    const stateVector = encodeStateVector(document);
    const content = yDocToContent(document);
    const [row] = await statements(this.deps.database.db).store.execute({
      id: documentName,
      state,
      content: JSON.stringify(content),
      restVersion: lastContext?.restVersion ?? -1,
    });
    if (!row) {
      // Deleted while live: nothing to store into; tell the clients instead of failing forever.
      this.deps.log.info({ documentId: documentName }, 'live document was deleted; closing its connections');
      for (const connection of document.getConnections()) connection.close(COLLAB_CLOSE.accessRevoked);
      return;
    }
    document.broadcastStateless(
      encodeStatelessMessage({
        type: 'stored',
        stateVector,
        version: row.version,
        updatedAt: row.updatedAt.toISOString(),
      }),
    );
  }
}

/** The store as a prepared statement, built once per database (building a Drizzle query costs CPU per call). */
function buildStatements(db: Db) {
  const content = sql.placeholder('content');
  // A store that only writes back a REST replacement keeps the version that write already took
  // (unless something else bumped it since), so the PATCH response's ETag stays valid.
  const unchanged = sql`(${documents.content} = ${content}::jsonb or ${documents.version} = ${sql.placeholder('restVersion')}::integer)`;
  return {
    store: db
      .update(documents)
      .set({
        ydocState: sql`${sql.placeholder('state')}`,
        content: sql`${content}::jsonb`,
        version: sql`case when ${unchanged} then ${documents.version} else ${documents.version} + 1 end`,
        updatedAt: sql`case when ${unchanged} then ${documents.updatedAt} else now() end`,
      })
      .where(eq(documents.id, sql.placeholder('id')))
      .returning({ version: documents.version, updatedAt: documents.updatedAt })
      .prepare('qw_collab_store'),
  };
}

const statementCache = new WeakMap<Db, ReturnType<typeof buildStatements>>();
function statements(db: Db): ReturnType<typeof buildStatements> {
  let prepared = statementCache.get(db);
  if (!prepared) {
    prepared = buildStatements(db);
    statementCache.set(db, prepared);
  }
  return prepared;
}
