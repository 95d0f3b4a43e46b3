import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as Y from 'yjs';
import { isStoredFor, parseStatelessMessage } from '../../shared/editor/collab-protocol';
import { connectCollabClient, type CollabClient } from '../collab/testing';
import { api, childServerEnv, freePort, spawnChildServer, type ChildServer } from './child-server';

export { api };
import type { TcpBalancer } from './tcp-balancer';

/**
 * Building blocks of the fault tests (faults.test.ts): instances as child processes, editors typing numbered
 * paragraphs through the balancer, the `stored` accounting, convergence and lost-edit counting, and a private
 * redis-server that can be stopped and started again on the same port.
 */

const FAULT_JWT_SECRET = 'reliability-faults-secret-that-is-long-enough-for-hs256';

export interface Edit {
  text: string;
  /** The editor's own Yjs clock right after this edit. */
  clock: number;
  at: number;
}

export interface Editor {
  index: number;
  documentId: string;
  /** Index of the backend the first connection went to (from the balancer's counters). */
  backend: number;
  client: CollabClient;
  edits: Edit[];
  /** Highest own clock covered by a `stored` message: everything up to it was said to be in the database. */
  storedClock: number;
  /**
   * Times the editor's socket has connected. After a reconnect the balancer may have handed it to the
   * other instance, so `backend` holds only while this stays 1.
   */
  connects: number;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls an async condition every `intervalMs` until it holds; throws after `timeoutMs` with `what`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string | (() => string),
  intervalMs = 50,
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await condition()) return Date.now() - started;
    if (Date.now() - started > timeoutMs)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`,
      );
    await sleep(intervalMs);
  }
}

export async function signUp(baseUrl: string, email: string): Promise<string> {
  const res = await api(baseUrl, null, 'POST', '/api/auth/signup', {
    email,
    password: 'a sturdy passphrase 42',
    data: { full_name: 'Fault Writer' },
  });
  if (res.status !== 200 || !res.body?.session?.access_token)
    throw new Error(`signup answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.session.access_token as string;
}

export async function createDocuments(baseUrl: string, token: string, count: number, tag: string) {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await api(baseUrl, token, 'POST', '/api/documents', { title: `${tag} ${i}` });
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.body)}`);
    ids.push(res.body.id as string);
  }
  return ids;
}

/** Plain text of each block of stored rich-text content (the same shape paragraphs() gives for a live doc). */
export function textsOf(content: unknown): string[] {
  const blocks = (content as { content?: { content?: { text?: string }[] }[] } | null)?.content ?? [];
  return blocks.map((block) => (block.content ?? []).map((inline) => inline.text ?? '').join(''));
}

/** Starts one instance of the real server on its own DATA_DIR; `dirs` collects the directories to remove. */
export async function startInstance(
  options: { databaseUrl?: string; dataDir?: string; extra?: Record<string, string> },
  dirs: string[],
): Promise<ChildServer> {
  let dataDir = options.dataDir;
  if (!dataDir) {
    dataDir = mkdtempSync(path.join(tmpdir(), 'qw-faults-'));
    dirs.push(dataDir);
  }
  return spawnChildServer(
    childServerEnv({
      dataDir,
      databaseUrl: options.databaseUrl,
      jwtSecret: FAULT_JWT_SECRET,
      // A fixed port: with warn-level logs there is no "listening" line, and start-up polls /api/health.
      extra: { LOG_LEVEL: 'warn', PORT: String(await freePort()), ...options.extra },
    }),
  );
}

export function removeDirs(dirs: string[]): void {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Connects `count` editors one after another through the balancer, `perDocument` consecutive editors on each
 * document, so round-robin puts every document's editors on both instances. `onStored` hears which of an
 * editor's edits a `stored` message newly covered.
 */
export async function connectEditors(options: {
  balancer: TcpBalancer;
  token: string;
  documentIds: string[];
  count: number;
  onStored?: (editor: Editor, covered: Edit[]) => void;
}): Promise<Editor[]> {
  const { balancer, token, documentIds, count, onStored } = options;
  const perDocument = Math.ceil(count / documentIds.length);
  const editors: Editor[] = [];
  for (let index = 0; index < count; index++) {
    const before = balancer.total();
    const client = await connectCollabClient({
      serverUrl: balancer.url,
      documentId: documentIds[Math.floor(index / perDocument)]!,
      token,
      timeoutMs: 30_000,
    });
    const after = balancer.total();
    const backend = after.findIndex((n, i) => n > before[i]!);
    const editor: Editor = {
      index,
      documentId: documentIds[Math.floor(index / perDocument)]!,
      backend,
      client,
      edits: [],
      storedClock: 0,
      connects: 1,
    };
    client.socket.on('connect', () => {
      editor.connects += 1;
    });
    client.provider.on('stateless', ({ payload }: { payload: string }) => {
      const message = parseStatelessMessage(payload);
      if (message?.type !== 'stored') return;
      const clock = isStoredFor(message, client.doc)
        ? Y.getState(client.doc.store, client.doc.clientID)
        : (Y.decodeStateVector(Buffer.from(message.stateVector, 'base64')).get(client.doc.clientID) ?? 0);
      if (clock <= editor.storedClock) return;
      const covered = editor.edits.filter((edit) => edit.clock > editor.storedClock && edit.clock <= clock);
      editor.storedClock = clock;
      onStored?.(editor, covered);
    });
    editors.push(editor);
  }
  return editors;
}

/**
 * Every editor appends `${tag}-e<index>-<n>` every 120–240 ms (seeded), until stop() is called. Editors keep
 * typing while disconnected: the provider keeps the edits and sends them once connected again.
 */
export function startTyping(editors: Editor[], random: () => number, tag: string) {
  let stopped = false;
  const loops = editors.map(async (editor) => {
    await sleep(random() * 200);
    let seq = 0;
    while (!stopped) {
      const text = `${tag}-e${editor.index}-${++seq}`;
      editor.client.appendParagraph(text);
      editor.edits.push({
        text,
        clock: Y.getState(editor.client.doc.store, editor.client.doc.clientID),
        at: Date.now(),
      });
      await sleep(120 + random() * 120);
    }
  });
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

export function byDocument(editors: Editor[]): Map<string, Editor[]> {
  const groups = new Map<string, Editor[]>();
  for (const editor of editors)
    groups.set(editor.documentId, [...(groups.get(editor.documentId) ?? []), editor]);
  return groups;
}

export interface Accounting {
  typed: number;
  /** Edits present in every client of their document and in the stored content. */
  present: number;
  lost: number;
  lostExamples: string[];
}

/**
 * Waits until every client of each document shows the same paragraphs and the stored content shows them too,
 * then counts typed edits against what is there. `readStored` gives a document's stored paragraph texts.
 */
export async function awaitConvergence(
  editors: Editor[],
  readStored: (documentId: string) => Promise<string[]>,
  timeoutMs: number,
): Promise<{ ms: number; accounting: Accounting }> {
  const groups = byDocument(editors);
  let detail = '';
  const ms = await until(
    async () => {
      for (const [documentId, group] of groups) {
        const first = group[0]!.client.paragraphs().join('\n');
        const other = group.find((editor) => editor.client.paragraphs().join('\n') !== first);
        if (other) {
          detail = `clients of ${documentId} differ (e${group[0]!.index} vs e${other.index})`;
          return false;
        }
        const stored = (await readStored(documentId)).join('\n');
        if (stored !== first) {
          detail = `stored content of ${documentId} differs from its clients (${stored.split('\n').length} vs ${first.split('\n').length} blocks)`;
          return false;
        }
      }
      return true;
    },
    timeoutMs,
    () => `convergence: ${detail}`,
    200,
  );
  let typed = 0;
  let present = 0;
  const lostExamples: string[] = [];
  for (const [documentId, group] of groups) {
    const stored = new Set(await readStored(documentId));
    const live = group.map((editor) => new Set(editor.client.paragraphs()));
    for (const editor of group) {
      for (const edit of editor.edits) {
        typed++;
        if (stored.has(edit.text) && live.every((set) => set.has(edit.text))) present++;
        else if (lostExamples.length < 5) lostExamples.push(edit.text);
      }
    }
  }
  return { ms, accounting: { typed, present, lost: typed - present, lostExamples } };
}

/**
 * Checks, as they come, that edits an editor was told are stored are in the database: `stored` messages
 * queue the covered edits, one loop reads the documents and records any edit missing.
 */
export class StoredChecker {
  checked = 0;
  readonly violations: string[] = [];
  private queue: { documentId: string; texts: string[] }[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(private readonly readStored: (documentId: string) => Promise<string[]>) {
    this.loop = this.run();
  }

  add(editor: Editor, covered: Edit[]): void {
    if (covered.length) this.queue.push({ documentId: editor.documentId, texts: covered.map((e) => e.text) });
  }

  private async run(): Promise<void> {
    while (this.running || this.queue.length) {
      const batch = this.queue.splice(0);
      if (!batch.length) {
        await sleep(20);
        continue;
      }
      const documents = [...new Set(batch.map((item) => item.documentId))];
      const stored = new Map<string, Set<string>>();
      for (const documentId of documents) stored.set(documentId, new Set(await this.readStored(documentId)));
      for (const { documentId, texts } of batch) {
        for (const text of texts) {
          this.checked++;
          if (!stored.get(documentId)!.has(text)) this.violations.push(`${text} (${documentId})`);
        }
      }
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }
}

/** A private redis-server on a fixed port that the test stops and starts again. */
export class PrivateRedis {
  private child: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.up();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const child = spawn(
      '/usr/bin/redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 15_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (/Ready to accept connections/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}):\n${output}`));
      });
    });
  }

  /** Stops it abruptly (SIGKILL): connections drop, nothing is saved. */
  async down(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }
}
