import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documentImages, documents, documentVersions, templates, users } from '../db/schema';

export type ImageRow = typeof documentImages.$inferSelect;

export async function findImage(db: Db, documentId: string, imageId: string): Promise<ImageRow | undefined> {
  const [row] = await db
    .select()
    .from(documentImages)
    .where(and(eq(documentImages.id, imageId), eq(documentImages.documentId, documentId)))
    .limit(1);
  return row;
}

/** The owner of a document and their plan (the plan whose storage its images count against). */
export async function findDocumentOwnerPlan(
  db: Db,
  documentId: string,
): Promise<{ ownerId: string; plan: string } | undefined> {
  const [row] = await db
    .select({ ownerId: documents.userId, plan: users.plan })
    .from(documents)
    .innerJoin(users, eq(users.id, documents.userId))
    .where(eq(documents.id, documentId))
    .limit(1);
  return row;
}

/** Bytes of images in all of the user's documents, the trash's included (their files are still on disk). */
async function imageBytesOfOwner(db: Pick<Db, 'select'>, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string | number | null>`coalesce(sum(${documentImages.bytes}), 0)` })
    .from(documentImages)
    .innerJoin(documents, eq(documents.id, documentImages.documentId))
    .where(eq(documents.userId, ownerId));
  return Number(row?.total ?? 0);
}

/**
 * Adds the image's row unless `allowed` (given the owner's stored bytes) says no. The owner's user row is
 * locked first, so two uploads into the owner's documents at once are counted one after the other.
 */
export async function insertImageWithin(
  db: Db,
  ownerId: string,
  values: typeof documentImages.$inferInsert,
  allowed: (storedBytes: number) => void,
): Promise<ImageRow> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, ownerId)).for('update');
    allowed(await imageBytesOfOwner(tx, ownerId));
    const [row] = await tx.insert(documentImages).values(values).returning();
    return row!;
  });
}

/** Any instance's sweep holds this for its transaction; another instance's sweep finds it taken and skips. */
const SWEEP_LOCK_KEY = 7_236_914_001;

/** Some text of `content` names the image (its id is in its address). */
const mentions = (content: unknown) => sql`strpos((${content})::text, (${documentImages.id})::text) > 0`;

/**
 * One round of the orphaned-image sweep: the `batch` images created before `createdBefore` that were checked
 * least recently (never first) are marked checked, and those of them that no document's content (its own
 * first, then any other's: an image copied into another document keeps its first address), no saved version
 * and no template names any more are deleted, in the same statement that checks, so an image named again
 * meanwhile stays. Returns the deleted rows (their files are the caller's to remove), or null when another
 * instance is sweeping.
 */
export async function deleteOrphanedImages(
  db: Db,
  createdBefore: Date,
  batch: number,
): Promise<{ id: string; documentId: string; mime: string }[] | null> {
  return db.transaction(async (tx) => {
    const lock = await tx.execute<{ locked: boolean }>(
      sql`select pg_try_advisory_xact_lock(${SWEEP_LOCK_KEY}) as locked`,
    );
    if (!lock.rows[0]?.locked) return null;
    const due = await tx
      .select({ id: documentImages.id })
      .from(documentImages)
      .where(lt(documentImages.createdAt, createdBefore))
      .orderBy(sql`${documentImages.checkedAt} asc nulls first`, asc(documentImages.createdAt))
      .limit(batch);
    if (due.length === 0) return [];
    const ids = due.map((row) => row.id);
    await tx
      .update(documentImages)
      .set({ checkedAt: sql`now()` })
      .where(inArray(documentImages.id, ids));
    return tx
      .delete(documentImages)
      .where(
        and(
          inArray(documentImages.id, ids),
          sql`not exists (select 1 from ${documents} where ${documents.id} = ${documentImages.documentId} and ${mentions(documents.content)})`,
          sql`not exists (select 1 from ${documents} where ${mentions(documents.content)})`,
          sql`not exists (select 1 from ${documentVersions} where ${mentions(documentVersions.content)})`,
          sql`not exists (select 1 from ${templates} where ${mentions(templates.content)})`,
        ),
      )
      .returning({ id: documentImages.id, documentId: documentImages.documentId, mime: documentImages.mime });
  });
}
