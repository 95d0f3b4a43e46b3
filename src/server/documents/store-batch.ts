import type { LiveStateStore, LiveStoreResult } from './repository';

/** One live document's state to write, and what the database holds after (see storeLiveStates). */
export type DocumentStore = LiveStateStore;
export type StoreResult = LiveStoreResult;

/** Writes many documents' states in one statement: the documents module's storeLiveStates. */
export type StoreMany = (stores: DocumentStore[]) => Promise<Map<string, StoreResult>>;

/** Told about every statement: how many documents it wrote, how long it took, whether it failed. */
export type StoreBatchObserver = (documents: number, seconds: number, ok: boolean) => void;

/** How long a store waits for others to share its statement. */
const STORE_BATCH_WINDOW_MS = 50;
/** Most documents in one statement, and most bytes of state: a statement stays a short stop for the thread. */
const MAX_BATCH_DOCUMENTS = 50;
const MAX_BATCH_STATE_BYTES = 2 * 1024 * 1024;

interface Waiting {
  store: DocumentStore;
  settle: { resolve: (result: StoreResult) => void; reject: (error: unknown) => void }[];
}

/**
 * Gathers the stores that fall due within STORE_BATCH_WINDOW_MS into one statement. Documents opened together
 * reach their store deadline together (a reconnect after a restart, a class editing at once), and with the
 * embedded database every statement runs on this thread: ten stores of a few ms each, back to back, held every
 * socket. One statement costs little more than one store. With PostgreSQL it saves the round trips.
 * A second store of a document that is still waiting replaces the first (Yjs state only grows).
 */
export class StoreBatch {
  private waiting = new Map<string, Waiting>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly storeMany: StoreMany,
    private readonly observe: StoreBatchObserver = () => {},
  ) {}

  /** `now`: someone waits on this store (a REST write answers after it): write at once, with what is waiting. */
  store(store: DocumentStore, options: { now?: boolean } = {}): Promise<StoreResult> {
    const result = new Promise<StoreResult>((resolve, reject) => {
      const earlier = this.waiting.get(store.documentId);
      if (earlier) {
        // The newer state holds the older one's changes, so also its writer's change and title.
        earlier.store = {
          ...store,
          title: store.title ?? earlier.store.title,
          writerChange: store.writerChange || earlier.store.writerChange,
        };
        earlier.settle.push({ resolve, reject });
      } else {
        this.waiting.set(store.documentId, { store, settle: [{ resolve, reject }] });
      }
      this.timer ??= setTimeout(() => void this.flush(), STORE_BATCH_WINDOW_MS);
    });
    if (options.now) void this.flush();
    return result;
  }

  /** Writes everything waiting now (shutdown uses it rather than wait for the window). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = [...this.waiting.values()];
    this.waiting.clear();
    // Statements run one after another, so a document's writes land in the order they were made.
    this.running = this.running.then(() => this.write(batch));
    return this.running;
  }

  private async write(batch: Waiting[]): Promise<void> {
    for (let start = 0; start < batch.length;) {
      let end = start;
      let bytes = 0;
      while (end < batch.length && end - start < MAX_BATCH_DOCUMENTS) {
        bytes += batch[end]!.store.state.byteLength;
        end += 1;
        if (bytes >= MAX_BATCH_STATE_BYTES) break;
      }
      await this.writeChunk(batch.slice(start, end));
      start = end;
    }
  }

  private async writeChunk(chunk: Waiting[]): Promise<void> {
    try {
      const rows = await this.run(chunk.map((waiting) => waiting.store));
      for (const waiting of chunk) {
        const result = rows.get(waiting.store.documentId);
        for (const { resolve } of waiting.settle) resolve(result);
      }
    } catch (error) {
      if (chunk.length === 1) {
        for (const { reject } of chunk[0]!.settle) reject(error);
        return;
      }
      // One document's bad write must not fail the others: each on its own.
      for (const waiting of chunk) await this.writeChunk([waiting]);
    }
  }

  private async run(stores: DocumentStore[]): Promise<Map<string, StoreResult>> {
    const started = performance.now();
    let ok = false;
    try {
      const rows = await this.storeMany(stores);
      ok = true;
      return rows;
    } finally {
      this.observe(stores.length, (performance.now() - started) / 1000, ok);
    }
  }
}
