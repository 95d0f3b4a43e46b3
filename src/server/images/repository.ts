import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documentImages, documents, users } from '../db/schema';

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
