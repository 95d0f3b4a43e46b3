import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import {
  contentWordCount,
  dailyTarget,
  dayHistory,
  localDay,
  MAX_FOLDER_GOAL_DOCUMENTS,
  STREAK_LOOKBACK_DAYS,
  STREAK_MIN_WORDS,
  streakDays,
  wordsPerDay,
  WORDS_BUCKET_MS,
} from '../../shared/goals';
import type { DocumentGoal } from '../../shared/schemas/goals';
import { creditedWriter, EditorsSinceStore } from './attribution';
import {
  addWordsWritten,
  deleteGoal,
  findGoal,
  findStoredContent,
  listWordsWritten,
  upsertGoal,
  type GoalRow,
  type GoalSubject,
} from './repository';
import { listDocumentsInFolders } from '../documents';
import { assertFolderOf, folderWithSubfolders } from '../folders';

/** Changes a writer makes by writing: the others (restore, import, a template, AI) move the count silently. */
const WRITING_SOURCES: ReadonlySet<string> = new Set(['rest', 'socket']);
const DAY_MS = 86_400_000;

export interface GoalsDeps {
  db: Db;
  /** The live document's content on this instance, when it is open here. */
  liveContent(documentId: string): unknown;
  log: FastifyBaseLogger;
}

/**
 * Word targets and words written. Counting: each store of a document is compared with the word count of the
 * store before it (kept in memory from the first edit on, read from the stored content when unknown), and the
 * net change is credited to the one writer who edited in between (attribution.ts).
 */
export class GoalsService {
  clock = { now: () => new Date() };
  private readonly editors = new EditorsSinceStore();
  /** Words at the last store, per document (a promise while it is read from the database). */
  private readonly baselines = new Map<string, Promise<number | undefined>>();
  /** Per document, the work in progress: stores are counted one after another, in order. */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(private readonly deps: GoalsDeps) {}

  /** A connection changed the live document: the first change since loading reads where the count starts. */
  liveEdited(documentId: string, editor: string): void {
    this.editors.record(documentId, editor);
    if (!this.baselines.has(documentId)) this.baselines.set(documentId, this.storedWords(documentId));
  }

  /** The writer is about to replace the content by REST: the stored content is still the one before. */
  async beforeReplace(documentId: string): Promise<void> {
    if (!this.baselines.has(documentId)) this.baselines.set(documentId, this.storedWords(documentId));
    await this.baselines.get(documentId);
  }

  /** New content is stored: credit the net words since the last store. */
  contentChanged(event: {
    documentId: string;
    source: string;
    userId?: string | undefined;
    live?: unknown;
  }): Promise<void> {
    return this.inTurn(event.documentId, async () => {
      const { documentId, source, userId } = event;
      const editors = this.editors.take(documentId);
      if (userId) editors.add(userId);
      const before = await this.baselines.get(documentId);
      const after =
        event.live !== undefined ? contentWordCount(event.live) : await this.storedWords(documentId);
      if (after === undefined) return;
      this.baselines.set(documentId, Promise.resolve(after));
      const writer = creditedWriter(editors);
      if (before === undefined || !writer || !WRITING_SOURCES.has(source) || after === before) return;
      const now = this.clock.now().getTime();
      await addWordsWritten(this.deps.db, {
        userId: writer,
        documentId,
        bucketStart: new Date(now - (now % WORDS_BUCKET_MS)),
        words: after - before,
      });
    });
  }

  /** Nobody has the document live any more; everything is stored, so the next count starts from the store. */
  forget(documentId: string): void {
    this.editors.forget(documentId);
    this.baselines.delete(documentId);
  }

  /** The writer's goal on their document, with today's words in it and their streak. */
  async getForDocument(userId: string, documentId: string, zone: string): Promise<DocumentGoal> {
    const words = await this.currentWords(documentId);
    return this.present(userId, { documentId }, [documentId], words, zone);
  }

  /**
   * The writer's goal on their folder: words are summed over the documents directly in it and in its
   * sub-folders (outside the trash), and so are today's words. 404 for a folder that is not theirs.
   */
  async getForFolder(userId: string, folderId: string, zone: string): Promise<DocumentGoal> {
    const { folders } = await folderWithSubfolders({ db: this.deps.db }, userId, folderId);
    const inFolders = await listDocumentsInFolders(
      this.deps.db,
      userId,
      folders.map((folder) => folder.id),
      MAX_FOLDER_GOAL_DOCUMENTS,
    );
    let words = 0;
    for (const document of inFolders) {
      const live = this.deps.liveContent(document.id);
      words += contentWordCount(live !== undefined ? live : document.content);
    }
    const ids = inFolders.map((document) => document.id);
    return this.present(userId, { folderId }, ids, words, zone);
  }

  /** 404 unless the folder is the writer's and outside the trash. */
  async assertFolder(userId: string, folderId: string): Promise<void> {
    await assertFolderOf({ db: this.deps.db }, userId, folderId);
  }

  async set(userId: string, subject: GoalSubject, goal: GoalRow): Promise<void> {
    await upsertGoal(this.deps.db, userId, subject, goal);
  }

  async clear(userId: string, subject: GoalSubject): Promise<void> {
    await deleteGoal(this.deps.db, userId, subject);
  }

  private async present(
    userId: string,
    subject: GoalSubject,
    documentIds: readonly string[],
    words: number,
    zone: string,
  ): Promise<DocumentGoal> {
    const now = this.clock.now();
    const today = localDay(now, zone);
    const [goal, buckets] = await Promise.all([
      findGoal(this.deps.db, userId, subject),
      // A day more than the lookback: the zone may start the oldest local day before its UTC date.
      listWordsWritten(
        this.deps.db,
        userId,
        documentIds,
        new Date(now.getTime() - (STREAK_LOOKBACK_DAYS + 1) * DAY_MS),
      ),
    ]);
    const perDay = wordsPerDay(buckets, zone);
    const inSubject = wordsPerDay(
      buckets.map((bucket) => ({ start: bucket.start, words: bucket.subjectWords })),
      zone,
    );
    return {
      target_words: goal?.targetWords ?? null,
      deadline: goal?.deadline ?? null,
      words,
      daily_target: goal ? dailyTarget(goal.targetWords, words, today, goal.deadline) : null,
      today_words: inSubject.get(today) ?? 0,
      today_words_all: perDay.get(today) ?? 0,
      streak_days: streakDays(perDay, today),
      streak_min_words: STREAK_MIN_WORDS,
      today,
      zone,
      history: dayHistory(perDay, today),
    };
  }

  private async currentWords(documentId: string): Promise<number> {
    const live = this.deps.liveContent(documentId);
    if (live !== undefined) return contentWordCount(live);
    return (await this.storedWords(documentId)) ?? 0;
  }

  private async storedWords(documentId: string): Promise<number | undefined> {
    try {
      const content = await findStoredContent(this.deps.db, documentId);
      return content === undefined ? undefined : contentWordCount(content);
    } catch (error) {
      this.deps.log.warn({ err: error, documentId }, 'reading the stored word count failed');
      return undefined;
    }
  }

  private inTurn(documentId: string, work: () => Promise<void>): Promise<void> {
    const previous = this.turns.get(documentId) ?? Promise.resolve();
    const next = previous.then(work, work);
    this.turns.set(documentId, next);
    const done = () => {
      if (this.turns.get(documentId) === next) this.turns.delete(documentId);
    };
    next.then(done, done);
    return next;
  }
}
